import APIManifest
import Foundation

/// What `protoc` made from one manifest's protos, kept between runs: running protoc twice per
/// gRPC manifest (descriptors, then protoc-gen-swift) would be most of a run with nothing to write.
///
/// An entry is found by the tools (`protoc` and the plugin, by path, size, modification time and
/// inode) and the arguments (import paths, protos, whether Swift is generated), and used only
/// while every proto protoc read still resolves to the same file with the same bytes. So an edit
/// to any proto, an import found in another folder, or a rebuilt plugin compiles again.
/// Like the render cache it lives in `CacheFolder` and only `apigen` (write mode) uses it.
struct ProtoCache {
    /// What protoc made.
    struct Compiled: Codable, Equatable, Sendable {
        /// The serialized `FileDescriptorSet` (imports and source info included).
        var descriptors: Data
        /// protoc-gen-swift's files, by the name it gave them; empty when only descriptors were made.
        var swiftFiles: [SwiftFile]
        /// Every proto protoc read.
        var inputs: [Input]
    }

    struct SwiftFile: Codable, Equatable, Sendable {
        var name: String
        var contents: String
    }

    /// A proto protoc read: by the name it is imported by, the file that name resolved to in the
    /// import paths (nil: none of them, so protoc's own include folder, which comes with protoc),
    /// and a fingerprint of the file's bytes.
    struct Input: Codable, Equatable, Sendable {
        var name: String
        var path: String?
        var fingerprint: String?
    }

    private static let format = "apigen proto cache 1"

    /// The entry's file.
    let file: URL
    let importPaths: [String]

    /// nil when a tool cannot be told apart from a rebuilt one (no file stamp): nothing is cached.
    init?(tools: ProtoTools, importPaths: [String], protos: [String], access: AccessLevel) {
        var key = Fingerprint()
        key.add(Self.format)
        for tool in [tools.protoc] + (tools.swiftPlugin.map { [$0] } ?? []) {
            let path = tool.resolvingSymlinksInPath().path
            guard let stamp = FileStamp(of: path) else { return nil }
            key.add("\(path) \(stamp.size) \(stamp.modified) \(stamp.inode)")
        }
        key.add(tools.swiftPlugin == nil ? "descriptors" : "descriptors and \(access.rawValue) swift")
        for path in importPaths { key.add("-I" + path) }
        for proto in protos { key.add(proto) }
        self.file = CacheFolder.url.appendingPathComponent("protos").appendingPathComponent("\(key).json")
        self.importPaths = importPaths
    }

    /// The entry, when there is one and every proto it was made from is as it was.
    func load() -> Compiled? {
        guard let data = FileManager.default.contents(atPath: file.path),
              let compiled = try? JSONDecoder().decode(Compiled.self, from: data),
              compiled.inputs.allSatisfy({ Self.input($0.name, in: importPaths) == $0 })
        else { return nil }
        return compiled
    }

    /// Saves an entry; failing to is harmless (the next run compiles again). Only entries whose
    /// protos had `settled` are saved.
    func save(_ compiled: Compiled) {
        guard let data = try? JSONEncoder().encode(compiled) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }

    /// Whether the protos protoc read, started at `started`, are surely the bytes it read: none
    /// changed while protoc ran or shortly before (file times can be coarse). What protoc made from
    /// a proto being edited is used, but neither cached nor recorded.
    static func settled(_ inputs: [Input], since started: Date) -> Bool {
        let settled = Int64((started.timeIntervalSince1970 - 2) * 1_000_000_000)
        return inputs.compactMap(\.path).allSatisfy { path in
            FileStamp(of: path).map { $0.modified < settled } ?? false
        }
    }

    /// The proto imported as `name` as it is now: the first import path holding it, as protoc
    /// looks, and its bytes' fingerprint.
    static func input(_ name: String, in importPaths: [String]) -> Input {
        for folder in importPaths {
            let path = folder + "/" + name
            if let data = FileManager.default.contents(atPath: path) {
                var fingerprint = Fingerprint()
                fingerprint.add(data)
                return Input(name: name, path: path, fingerprint: fingerprint.description)
            }
        }
        return Input(name: name, path: nil, fingerprint: nil)
    }
}
