import Foundation

/// The two programs gRPC generation needs, both products of the swift-protobuf dependency: its
/// `protoc`, built from source with the well-known types' protos beside it, and `protoc-gen-swift`
/// (so that generated messages match the runtime's version). A `protoc` installed on the machine
/// serves as well.
struct ProtoTools: Sendable {
    var protoc: URL
    /// nil when only descriptors are needed.
    var swiftPlugin: URL?
    /// Read once a run, when the messages' record is written (`readVersions()`).
    var versions: Versions?

    static let protocHelp = "build swift-protobuf's with 'swift build --product protoc && swift build --product protoc-gen-swift' in apigen's package or in one that depends on it (the build plugin APIGenGRPCPlugin builds it itself), install one ('apt-get install protobuf-compiler libprotobuf-dev', 'brew install protobuf'), or set PROTOC to its path"
    static let pluginHelp = "build it with 'swift build --product protoc-gen-swift' in apigen's package or in one that depends on it, or set PROTOC_GEN_SWIFT to its path"

    /// `PROTOC`, else swift-protobuf's built beside apigen or in the package being worked in,
    /// else one on the PATH.
    static func findProtoc() -> URL? {
        find("protoc", environment: "PROTOC")
    }

    /// `PROTOC_GEN_SWIFT`, else one built beside apigen or in the package being worked in, else
    /// one on the PATH.
    static func findSwiftPlugin() -> URL? {
        find("protoc-gen-swift", environment: "PROTOC_GEN_SWIFT")
    }

    /// The program the `variable` environment variable names, else `name` beside apigen itself
    /// (`swift build` puts a package's executables together), else in the working directory's
    /// `.build/debug` or `.build/release`, else on the PATH. In each folder `name-tool` serves
    /// too: the same product, built by SwiftPM for a plugin that runs it.
    private static func find(_ name: String, environment variable: String) -> URL? {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty { return URL(fileURLWithPath: path) }
        var folders: [String] = []
        if let apigen = Bundle.main.executableURL {
            folders.append(apigen.deletingLastPathComponent().path)
        }
        let cwd = FileManager.default.currentDirectoryPath
        folders += [".build/debug", ".build/release"].map { "\(cwd)/\($0)" }
        let candidates = folders.flatMap { ["\($0)/\(name)", "\($0)/\(name)-tool"] }
        if let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) {
            return URL(fileURLWithPath: found)
        }
        return onPath(name)
    }

    private static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// The tools' versions, for the record of what made the messages: what `protoc --version`
    /// prints (`libprotoc 31.1`), and the version `protoc-gen-swift --version` prints after its
    /// own name (`1.39.0`; the name is the executable's, `protoc-gen-swift-tool` when SwiftPM
    /// built it for a plugin).
    struct Versions: Sendable {
        var protoc: String
        var protocGenSwift: String
    }

    /// The tools' versions, as they print them; nil without protoc-gen-swift.
    func readVersions() -> Versions? {
        guard let swiftPlugin,
              let protocVersion = try? Self.run(protoc, ["--version"]), protocVersion.status == 0,
              let pluginRun = try? Self.run(swiftPlugin, ["--version"]), pluginRun.status == 0
        else { return nil }
        let line = { (text: String) in text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "" }
        let pluginVersion = line(pluginRun.output).split(separator: " ").last.map(String.init) ?? ""
        return Versions(protoc: line(protocVersion.output), protocGenSwift: pluginVersion)
    }

    /// Runs `protoc` with `arguments`; returns its exit status and what it wrote to stderr.
    func runProtoc(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let run = try Self.run(protoc, arguments, readingErrors: true)
        return (run.status, run.output)
    }

    /// Runs `program`; returns its exit status and what it wrote to standard output, or to
    /// standard error when `readingErrors`, the other stream discarded.
    private static func run(_ program: URL, _ arguments: [String], readingErrors: Bool = false) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = readingErrors ? FileHandle.nullDevice : pipe
        process.standardError = readingErrors ? pipe : FileHandle.nullDevice
        try process.run()
        // Read before waiting: a full pipe would block the program.
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
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
