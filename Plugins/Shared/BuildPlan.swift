import Foundation
import PackagePlugin

/// The command a build plugin gives SwiftPM for one target: apigen over the target's `apis/`
/// folder, with every file it reads as an input, so that it runs again only when one changes,
/// and every file it writes named in advance, as SwiftPM requires.
///
/// The names follow apigen's `file-per-manifest` layout (`OutputLayout.filePerManifest`):
/// - `billing/users.yaml` → `billing.users.generated.swift`;
/// - `protos/geo/point.proto` → `Protos/protos_geo_point.pb.swift`;
/// - the workspace's defaults → `APIDefaults+Workspace.swift`.
struct BuildPlan {
    /// The target's `apis/workspace.yaml`.
    let workspaceFile: URL
    let inputs: [URL]
    let outputs: [URL]
    /// Whether the workspace has protos, which only a plugin with `protoc` can compile.
    let hasProtos: Bool

    init(targetName: String, targetDirectory: URL, outputFolder: URL) throws {
        let apis = targetDirectory.appending(path: "apis")
        workspaceFile = apis.appending(path: "workspace.yaml")
        guard FileManager.default.fileExists(atPath: workspaceFile.path) else {
            throw PluginFailure("target '\(targetName)' uses apigen's plugin but has no \(workspaceFile.path): add that file (`apigen init` writes one), with a manifest beside it for each group of APIs")
        }
        var inputs: [URL] = []
        var outputs = [outputFolder.appending(path: "APIDefaults+Workspace.swift")]
        var hasProtos = false
        for relative in Self.files(under: apis) {
            inputs.append(apis.appending(path: relative))
            if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml"), relative != "workspace.yaml" {
                let stem = relative.hasSuffix(".yaml") ? relative.dropLast(5) : relative.dropLast(4)
                outputs.append(outputFolder.appending(path: stem.replacingOccurrences(of: "/", with: ".") + ".generated.swift"))
            } else if relative.hasSuffix(".proto") {
                hasProtos = true
                outputs.append(outputFolder.appending(path: "Protos/" + relative.dropLast(6).replacingOccurrences(of: "/", with: "_") + ".pb.swift"))
            }
        }
        if let templates = try Self.templatesFolder(in: workspaceFile) {
            let folder = apis.appending(path: templates).standardizedFileURL
            inputs += Self.files(under: folder).map { folder.appending(path: $0) }
        }
        self.inputs = inputs
        self.outputs = outputs
        self.hasProtos = hasProtos
    }

    /// Every file below `folder`, by its path from there, as apigen finds manifests.
    private static func files(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appending(path: relative).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(relative)
            }
        }
        return files.sorted()
    }

    /// The workspace's `templates:` folder, read from its top-level line: the plugin has no YAML
    /// parser, and apigen reports anything this misreads.
    private static func templatesFolder(in workspaceFile: URL) throws -> String? {
        let text = try String(contentsOf: workspaceFile, encoding: .utf8)
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("templates:") {
            var value = line.dropFirst("templates:".count)
            if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
            let path = value.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return path.isEmpty ? nil : path
        }
        return nil
    }

    /// The build command: `apigen generate` in the file-per-manifest layout into `outputFolder`,
    /// its caches in `cacheFolder`, with `protoc` and `protoc-gen-swift` when the plugin has them.
    func command(targetName: String, targetDirectory: URL, apigen: URL, outputFolder: URL, cacheFolder: URL, protoc: URL?, protocGenSwift: URL?) -> Command {
        var environment = ["APIGEN_CACHE_DIR": cacheFolder.path]
        var tools = [apigen]
        if let protoc, let protocGenSwift {
            environment["PROTOC"] = protoc.path
            environment["PROTOC_GEN_SWIFT"] = protocGenSwift.path
            tools += [protoc, protocGenSwift]
        }
        return .buildCommand(
            displayName: "Generating \(targetName)'s APIs from \(workspaceFile.path)",
            executable: apigen,
            arguments: [
                "generate", "--quiet",
                "--workspace", workspaceFile.path,
                "--output", outputFolder.path,
                "--sources", targetDirectory.path,
                "--layout", "file-per-manifest",
            ],
            environment: environment,
            inputFiles: inputs + tools,
            outputFiles: outputs
        )
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension BuildPlan {
    /// An Xcode target has no folder of its own: it is the one holding the `apis/workspace.yaml`
    /// among the target's files.
    static func targetDirectory(of target: XcodeTarget) throws -> URL {
        guard let workspace = target.inputFiles.first(where: { $0.url.lastPathComponent == "workspace.yaml" && $0.url.deletingLastPathComponent().lastPathComponent == "apis" }) else {
            throw PluginFailure("target '\(target.displayName)' uses apigen's plugin but has no apis/workspace.yaml among its files: add that folder to the target")
        }
        return workspace.url.deletingLastPathComponent().deletingLastPathComponent()
    }
}
#endif
