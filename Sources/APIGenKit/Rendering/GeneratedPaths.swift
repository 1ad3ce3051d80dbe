/// Where each generated file goes inside the output folder.
enum GeneratedPaths {
    static let workspace = "APIDefaults+Workspace.swift"

    /// A manifest's files go in a folder named after it: `billing/users.yaml` → `billing/users/`,
    /// holding a file per API and one for the manifest's types. Why by manifest: SwiftPM hands
    /// the compiler a module's files in path order and the driver batches neighbours together,
    /// so each manifest's types (the heaviest file to compile) land in a different batch; under
    /// one folder they would all fall in the last batch, which would run alone on one core
    /// (docs/ARCHITECTURE.md).
    static func manifestFolder(_ relativePath: String) -> String {
        var stem = relativePath
        for suffix in [".yaml", ".yml"] where stem.hasSuffix(suffix) {
            stem.removeLast(suffix.count)
        }
        return stem
    }

    static func api(_ className: String, manifest relativePath: String) -> String {
        manifestFolder(relativePath) + "/" + fileName(className)
    }

    /// The types a manifest declares, together in one file: `billing/users.yaml` →
    /// `billing/users/billing.users.models.swift`. One file per manifest, not per type: every
    /// file of a module costs its build the same again in imports and per-file work. The name
    /// spells the whole path because a module's files need different names.
    static func models(manifest relativePath: String) -> String {
        let folder = manifestFolder(relativePath)
        return folder + "/" + fileName(folder.replacingOccurrences(of: "/", with: ".") + ".models")
    }

    /// A file protoc-gen-swift named (`geo_point.pb.swift`).
    static func protoMessages(_ fileName: String) -> String { "Protos/" + fileName }

    /// The name, shortened past 120 bytes with a hash of the whole name: file systems
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
