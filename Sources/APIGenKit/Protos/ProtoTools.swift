import Foundation

/// The two programs gRPC generation needs: Debian's `protoc`, and `protoc-gen-swift` built from
/// the swift-protobuf dependency (so that generated messages match the runtime's version).
struct ProtoTools: Sendable {
    var protoc: URL
    /// nil when only descriptors are needed.
    var swiftPlugin: URL?

    static let protocHelp = "install it with 'apt-get install protobuf-compiler libprotobuf-dev' (Debian, Ubuntu) or 'brew install protobuf' (macOS), or set PROTOC to its path"
    static let pluginHelp = "build it with 'make protoc-gen-swift' (swift build -c release --product protoc-gen-swift), or set PROTOC_GEN_SWIFT to its path"

    /// `PROTOC`, else `protoc` on the PATH.
    static func findProtoc() -> URL? {
        if let path = ProcessInfo.processInfo.environment["PROTOC"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return onPath("protoc")
    }

    /// `PROTOC_GEN_SWIFT`, else one built in this package (release, then debug), else beside
    /// apigen itself, else on the PATH.
    static func findSwiftPlugin() -> URL? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["PROTOC_GEN_SWIFT"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let cwd = FileManager.default.currentDirectoryPath
        var candidates = [".build/release", ".build/debug"].map { "\(cwd)/\($0)/protoc-gen-swift" }
        if let apigen = Bundle.main.executableURL {
            candidates.append(apigen.deletingLastPathComponent().appendingPathComponent("protoc-gen-swift").path)
        }
        if let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) {
            return URL(fileURLWithPath: found)
        }
        return onPath("protoc-gen-swift")
    }

    private static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// Runs `protoc` with `arguments`; returns its exit status and what it wrote to stderr.
    func runProtoc(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = protoc
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Read before waiting: a full pipe would block protoc.
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

extension Generator {
    /// Why gRPC workspaces cannot be generated on this machine (no protoc, no protoc-gen-swift),
    /// or nil when they can.
    public static var grpcToolsMissing: String? {
        if ProtoTools.findProtoc() == nil { return "protoc: \(ProtoTools.protocHelp)" }
        if ProtoTools.findSwiftPlugin() == nil { return "protoc-gen-swift: \(ProtoTools.pluginHelp)" }
        return nil
    }
}
