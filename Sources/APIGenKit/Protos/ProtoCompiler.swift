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
    }

    /// The `.pb.swift` files are needed (generate, check); `lint` needs only descriptors.
    var generatesSources: Bool

    func compile(_ workspace: LoadedWorkspace, into diagnostics: inout Diagnostics) -> Output? {
        var output = Output()
        let files = workspace.files.filter { $0.grpc != nil }
        guard !files.isEmpty else { return output }
        guard let protoc = ProtoTools.findProtoc() else {
            diagnostics.error("gRPC APIs need protoc, which is not on this machine: \(ProtoTools.protocHelp)", at: files[0].grpc!.location)
            return nil
        }
        var tools = ProtoTools(protoc: protoc)
        if generatesSources {
            guard let plugin = ProtoTools.findSwiftPlugin() else {
                diagnostics.error("gRPC APIs need protoc-gen-swift, which was not found: \(ProtoTools.pluginHelp)", at: files[0].grpc!.location)
                return nil
            }
            tools.swiftPlugin = plugin
        }
        var sources: [String: (contents: String, from: String)] = [:]
        for file in files {
            guard let settings = file.grpc, !settings.protos.isEmpty else { continue }
            guard let compiled = compile(file: file.file, settings, tools: tools, into: &diagnostics) else { continue }
            output.catalogs[file.file] = compiled.catalog
            for source in compiled.sources {
                if let earlier = sources[source.path], earlier.contents != source.contents {
                    diagnostics.error("'\(source.path)' is generated from protos of '\(earlier.from)' and of this file, which differ: two protos share a name", at: settings.location)
                }
                sources[source.path] = (source.contents, file.file)
            }
        }
        output.sources = sources.keys.sorted().map { GeneratedFile(path: $0, contents: sources[$0]!.contents) }
        return diagnostics.hasErrors ? nil : output
    }

    private func compile(file: String, _ settings: GRPCSettings, tools: ProtoTools, into diagnostics: inout Diagnostics) -> (catalog: ProtoCatalog, sources: [GeneratedFile])? {
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

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("apigen-protoc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let descriptorFile = scratch.appendingPathComponent("descriptors.pb")
        let includes = importPaths.map { "--proto_path=\($0.value)" }
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let run = try tools.runProtoc(includes + ["--include_imports", "--include_source_info", "--descriptor_set_out=\(descriptorFile.path)"] + settings.protos.map(\.value))
            guard run.status == 0 else {
                report(run.errors, importPaths: importPaths.map(\.value), fallback: settings.location, into: &diagnostics)
                return nil
            }
            let set = try Google_Protobuf_FileDescriptorSet(serializedBytes: Data(contentsOf: descriptorFile))
            let catalog = ProtoCatalog(DescriptorSet(proto: set))
            guard let plugin = tools.swiftPlugin else { return (catalog, []) }

            // Messages of every proto but the well-known types, which SwiftProtobuf ships.
            let ownProtos = set.file.map(\.name).filter { !$0.hasPrefix("google/protobuf/") }
            let swiftOut = scratch.appendingPathComponent("swift")
            try FileManager.default.createDirectory(at: swiftOut, withIntermediateDirectories: true)
            let generate = try tools.runProtoc(includes + [
                "--plugin=protoc-gen-swift=\(plugin.path)",
                "--swift_out=\(swiftOut.path)",
                "--swift_opt=Visibility=Public",
                "--swift_opt=FileNaming=PathToUnderscores",
            ] + ownProtos)
            guard generate.status == 0 else {
                report(generate.errors, importPaths: importPaths.map(\.value), fallback: settings.location, into: &diagnostics)
                return nil
            }
            let sources = try FileManager.default.contentsOfDirectory(atPath: swiftOut.path).sorted().map { name in
                let text = try String(contentsOf: swiftOut.appendingPathComponent(name), encoding: .utf8)
                let proto = ownProtos.first { $0.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".proto", with: ".pb.swift") == name } ?? name
                return GeneratedFile(path: GeneratedPaths.protoMessages(name), contents: "\(Renderer.marker) from \(proto) with protoc-gen-swift. Do not edit.\n" + text)
            }
            return (catalog, sources)
        } catch {
            diagnostics.error("cannot compile the protos: \(error)", at: settings.location)
            return nil
        }
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
