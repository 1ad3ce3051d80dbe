import APIManifest
import Foundation
import SwiftProtobuf
import SwiftProtobufPluginLibrary

/// Compiles the protos of every API file with a `grpc:` block using the real `protoc`: a
/// descriptor set (imports and source info included) tells apigen the services, methods and
/// Swift message names; protoc-gen-swift writes the messages' Swift, which apigen then owns like
/// the rest of the generated folder (`Protos/`).
struct ProtoCompiler {
    /// What the protos of a workspace produce.
    struct Output: Sendable {
        /// By the path of the API file whose `grpc:` block named the protos.
        var catalogs: [String: ProtoCatalog] = [:]
        /// The `.pb.swift` files, each once (`GeneratedPaths.protoMessages`).
        var sources: [GeneratedFile] = []
        /// The path of the proto each of `sources` came from, by its generated path.
        var origins: [String: String] = [:]
        /// What the messages were made from (`ProtoRecord`), when they go in a `recordFolder`.
        var record: GeneratedFile?
    }

    /// The `.pb.swift` files are needed (generate, check); `lint` needs only descriptors.
    var generatesSources: Bool
    /// Whether protoc's output is taken from and kept in the proto cache (`apigen` itself;
    /// `check` and `lint` trust no cache).
    var cachesOutput = false
    /// The access level of the messages' Swift, the workspace's `access:`.
    var access: AccessLevel = .public
    /// The output folder whose committed messages and `ProtoRecord` are taken while the protos
    /// are as recorded, with no protoc run; nil to always run protoc (the file-per-manifest layout,
    /// whose output is never committed).
    var recordFolder: URL?

    /// What one manifest's protos made, and where it came from.
    private struct Compiled {
        var catalog: ProtoCatalog
        var sources: [GeneratedFile]
        var origins: [String: String]
        /// For the new record: nil when protoc read a proto that may have been changing.
        var entry: ProtoRecord.Entry?
    }

    func compile(_ workspace: LoadedWorkspace, into diagnostics: inout Diagnostics) -> Output? {
        var output = Output()
        let files = workspace.files.filter { $0.grpc != nil }
        guard !files.isEmpty else { return output }
        let record = recordFolder.flatMap(ProtoRecord.load(from:))
        // A record file apigen cannot read (an older format, or cut short) stands in for nothing.
        let unreadable = record == nil && recordFolder.map { FileManager.default.fileExists(atPath: $0.appendingPathComponent(ProtoRecord.path).path) } == true
        // Found when a manifest's protos are not as recorded; .some(nil) once that failed.
        var tools: ProtoTools??
        var sources: [String: (contents: String, from: String)] = [:]
        var origins: [String: String] = [:]
        var entries: [ProtoRecord.Entry] = []
        for file in files {
            guard let settings = file.grpc, !settings.protos.isEmpty else { continue }
            let key = ProtoRecord.Key(
                manifest: workspace.relativePath(file.file), importPaths: settings.importPaths.map(\.value),
                protos: settings.protos.map(\.value), access: access.rawValue
            )
            let recorded = record?.entry(for: key)
            let needsTools = { (diagnostics: inout Diagnostics, mismatch: String?) -> ProtoTools? in
                let why = mismatch ?? (unreadable ? "it is not a record this apigen reads: an older format, or cut short" : nil)
                if tools == nil { tools = .some(findTools(at: settings.location, recordMismatch: why, into: &diagnostics)) }
                return tools!
            }
            guard let compiled = compile(file: file.file, settings, key: key, recorded: recorded, tools: needsTools, into: &diagnostics) else { continue }
            output.catalogs[file.file] = compiled.catalog
            origins.merge(compiled.origins) { first, _ in first }
            if let entry = compiled.entry { entries.append(entry) }
            for source in compiled.sources {
                if let earlier = sources[source.path], earlier.contents != source.contents {
                    diagnostics.error("'\(source.path)' is generated from protos of '\(earlier.from)' and of this file, which differ: two protos share a name", at: settings.location)
                }
                sources[source.path] = (source.contents, file.file)
            }
        }
        output.sources = sources.keys.sorted().map { GeneratedFile(path: $0, contents: sources[$0]!.contents) }
        output.origins = origins
        if generatesSources, recordFolder != nil, !entries.isEmpty {
            output.record = ProtoRecord(entries: entries).generatedFile()
        }
        return diagnostics.hasErrors ? nil : output
    }

    /// protoc, and protoc-gen-swift when sources are generated, with their versions when a record
    /// is written; nil after saying which is missing (and, when the output folder's record no
    /// longer stands in for protoc, why: `recordMismatch`).
    private func findTools(at location: SourceLocation, recordMismatch: String?, into diagnostics: inout Diagnostics) -> ProtoTools? {
        let stale = recordMismatch.map { " (\(ProtoRecord.path) in the output folder no longer stands in for it: \($0))" } ?? ""
        guard let protoc = ProtoTools.findProtoc() else {
            diagnostics.error("gRPC APIs need protoc\(stale), which is not on this machine: \(ProtoTools.protocHelp)", at: location)
            return nil
        }
        var tools = ProtoTools(protoc: protoc)
        if generatesSources {
            guard let plugin = ProtoTools.findSwiftPlugin() else {
                diagnostics.error("gRPC APIs need protoc-gen-swift\(stale), which was not found: \(ProtoTools.pluginHelp)", at: location)
                return nil
            }
            tools.swiftPlugin = plugin
        }
        // Only a path from PROTOC or PROTOC_GEN_SWIFT can name something that is not a program.
        for (tool, variable) in [(tools.protoc, "PROTOC"), (tools.swiftPlugin, "PROTOC_GEN_SWIFT")] {
            if let tool, !FileManager.default.isExecutableFile(atPath: tool.path) {
                let why = recordMismatch.map { ", and it is needed: \(ProtoRecord.path) in the output folder no longer stands in for it: \($0)" } ?? ""
                diagnostics.error("\(variable) names '\(tool.path)', which is not an executable file\(why)", at: location)
                return nil
            }
        }
        if generatesSources, recordFolder != nil { tools.versions = tools.readVersions() }
        return tools
    }

    /// One manifest's protos: from its `recorded` entry while that still describes the files,
    /// else from the proto cache or protoc.
    private func compile(
        file: String, _ settings: GRPCSettings, key: ProtoRecord.Key, recorded: ProtoRecord.Entry?,
        tools findTools: (inout Diagnostics, _ recordMismatch: String?) -> ProtoTools?, into diagnostics: inout Diagnostics
    ) -> Compiled? {
        let manifestFolder = (file as NSString).deletingLastPathComponent
        let importPaths = settings.importPaths.isEmpty
            ? [Located(manifestFolder.isEmpty ? "." : manifestFolder, at: settings.location)]
            : settings.importPaths.map { Located(resolve($0.value, from: manifestFolder), at: $0.location) }
        for path in importPaths where !isDirectory(path.value) {
            diagnostics.error("import path '\(path.value)' is not a folder", at: path.location)
        }
        for proto in settings.protos where !importPaths.contains(where: { FileManager.default.fileExists(atPath: "\($0.value)/\(proto.value)") }) {
            diagnostics.error("proto '\(proto.value)' is in none of the import paths (\(importPaths.map(\.value).joined(separator: ", ")))", at: proto.location)
        }
        guard !diagnostics.hasErrors else { return nil }

        let paths = importPaths.map(\.value)
        do {
            let compiled: ProtoCache.Compiled
            var entry: ProtoRecord.Entry?
            var mismatch: String?
            var fromRecord: ProtoCache.Compiled?
            if let recorded, let folder = recordFolder {
                do throws(ProtoRecord.Mismatch) {
                    fromRecord = try recorded.compiled(importPaths: paths, outputFolder: folder)
                } catch {
                    mismatch = error.description
                }
            }
            if let recorded, let fromRecord {
                compiled = fromRecord
                entry = recorded
            } else {
                guard let tools = findTools(&diagnostics, mismatch) else { return nil }
                let cache = cachesOutput ? ProtoCache(tools: tools, importPaths: paths, protos: settings.protos.map(\.value), access: access) : nil
                var settled = true
                if let cached = cache?.load() {
                    compiled = cached
                } else {
                    let started = Date()
                    guard let fresh = try run(tools, importPaths: paths, settings, into: &diagnostics) else { return nil }
                    settled = ProtoCache.settled(fresh.inputs, since: started)
                    if settled { cache?.save(fresh) }
                    compiled = fresh
                }
                if settled, let versions = tools.versions {
                    entry = ProtoRecord.entry(for: key, compiled, importPaths: paths, versions: versions)
                }
            }
            let set = try Google_Protobuf_FileDescriptorSet(serializedBytes: compiled.descriptors)
            let ownProtos = Self.ownProtos(set)
            var origins: [String: String] = [:]
            let sources = compiled.swiftFiles.map { file in
                let proto = ownProtos.first { $0.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".proto", with: ".pb.swift") == file.name } ?? file.name
                let path = GeneratedPaths.protoMessages(file.name)
                origins[path] = compiled.inputs.first { $0.name == proto }?.path
                return GeneratedFile(path: path, contents: "\(Renderer.marker) from \(SwiftLiteral.commentLine(proto)) with protoc-gen-swift. Do not edit.\n" + file.contents)
            }
            return Compiled(catalog: ProtoCatalog(DescriptorSet(proto: set)), sources: sources, origins: origins, entry: entry)
        } catch {
            diagnostics.error("cannot compile the protos: \(error)", at: settings.location)
            return nil
        }
    }

    /// The protos whose messages protoc-gen-swift writes: all but the well-known types, which
    /// SwiftProtobuf ships.
    private static func ownProtos(_ set: Google_Protobuf_FileDescriptorSet) -> [String] {
        set.file.map(\.name).filter { !$0.hasPrefix("google/protobuf/") }
    }

    /// Runs protoc for the descriptors, then, when asked, protoc-gen-swift for the messages.
    /// nil after reporting protoc's errors.
    private func run(_ tools: ProtoTools, importPaths: [String], _ settings: GRPCSettings, into diagnostics: inout Diagnostics) throws -> ProtoCache.Compiled? {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("apigen-protoc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let descriptorFile = scratch.appendingPathComponent("descriptors.pb")
        let includes = importPaths.map { "--proto_path=\($0)" }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let run = try tools.runProtoc(includes + ["--include_imports", "--include_source_info", "--descriptor_set_out=\(descriptorFile.path)"] + settings.protos.map(\.value))
        guard run.status == 0 else {
            report(run.errors, importPaths: importPaths, fallback: settings.location, into: &diagnostics)
            return nil
        }
        let descriptors = try Data(contentsOf: descriptorFile)
        let set = try Google_Protobuf_FileDescriptorSet(serializedBytes: descriptors)
        // What protoc read, as the cache checks it (`ProtoCache.save` keeps it only if none of
        // these files changed since protoc started).
        let inputs = set.file.map { ProtoCache.input($0.name, in: importPaths) }
        var compiled = ProtoCache.Compiled(descriptors: descriptors, swiftFiles: [], inputs: inputs)
        guard let plugin = tools.swiftPlugin else { return compiled }

        let ownProtos = Self.ownProtos(set)
        let swiftOut = scratch.appendingPathComponent("swift")
        try FileManager.default.createDirectory(at: swiftOut, withIntermediateDirectories: true)
        let generate = try tools.runProtoc(includes + [
            "--plugin=protoc-gen-swift=\(plugin.path)",
            "--swift_out=\(swiftOut.path)",
            "--swift_opt=Visibility=\(access.rawValue.capitalized)",
            "--swift_opt=FileNaming=PathToUnderscores",
        ] + ownProtos)
        guard generate.status == 0 else {
            report(generate.errors, importPaths: importPaths, fallback: settings.location, into: &diagnostics)
            return nil
        }
        compiled.swiftFiles = try FileManager.default.contentsOfDirectory(atPath: swiftOut.path).sorted().map { name in
            ProtoCache.SwiftFile(name: name, contents: try String(contentsOf: swiftOut.appendingPathComponent(name), encoding: .utf8))
        }
        return compiled
    }

    /// protoc's messages (`greeter.proto:12:5: Expected ";".`) as diagnostics at the proto's
    /// real path; a message without a position points at the manifest's `grpc:` block.
    private func report(_ errors: String, importPaths: [String], fallback: SourceLocation, into diagnostics: inout Diagnostics) {
        let lines = errors.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        if lines.isEmpty {
            diagnostics.error("protoc failed without a message", at: fallback)
        }
        let pattern = /^(.+?):(\d+):(\d+): (.*)$/
        for line in lines {
            if let match = line.wholeMatch(of: pattern), let row = Int(match.2), let column = Int(match.3) {
                let file = String(match.1)
                let real = importPaths.map { "\($0)/\(file)" }.first(where: FileManager.default.fileExists(atPath:)) ?? file
                let location = SourceLocation(file: (real as NSString).standardizingPath, line: row, column: column)
                let message = String(match.4)
                if message.lowercased().hasPrefix("warning:") {
                    diagnostics.warning(message.dropFirst("warning:".count).trimmingCharacters(in: .whitespaces), at: location)
                } else {
                    diagnostics.error("protoc: \(message)", at: location)
                }
            } else {
                diagnostics.error("protoc: \(line)", at: fallback)
            }
        }
    }

    private func resolve(_ path: String, from folder: String) -> String {
        if path.hasPrefix("/") || folder.isEmpty { return path }
        return ((folder as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }

    private func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
