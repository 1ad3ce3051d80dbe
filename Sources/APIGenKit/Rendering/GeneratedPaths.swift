/// Where each generated file goes inside the output folder.
enum GeneratedPaths {
    static let workspace = "APIDefaults+Workspace.swift"

    /// The folders files go in, which a run removes once they are empty.
    static let folders = ["APIs", "Models", "Protos"]

    static func api(_ className: String) -> String { "APIs/" + fileName(className) }
    static func model(_ swiftName: String) -> String { "Models/" + fileName(swiftName) }
    /// A file protoc-gen-swift named (`geo_point.pb.swift`).
    static func protoMessages(_ fileName: String) -> String { "Protos/" + fileName }

    /// The type's name, shortened past 120 bytes with a hash of the whole name: file systems
    /// allow 255 bytes a name, Swift identifiers have no limit.
    static func fileName(_ swiftName: String) -> String {
        guard swiftName.utf8.count > 120 else { return swiftName + ".swift" }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in swiftName.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(swiftName.prefix(100)) + "-" + String(repeating: "0", count: 16 - hex.count) + hex + ".swift"
    }
}
