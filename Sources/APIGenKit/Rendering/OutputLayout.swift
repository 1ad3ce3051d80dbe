import APIManifest
import Foundation

/// How the generated files are laid out in the output folder.
public enum OutputLayout: String, Sendable, CaseIterable {
    /// A folder per manifest holding a file per API and one for the manifest's types: what
    /// `apigen` writes into a source tree for people to read and commit.
    case filePerAPI = "file-per-api"
    /// One file per manifest and one per proto, each named from its path alone: what the SwiftPM
    /// build plugin asks for, because a build command must name its outputs before it runs and
    /// the plugin cannot read YAML.
    ///
    /// The names, which `Plugins/APIGenPlugin` works out the same way:
    /// - `billing/users.yaml` → `billing.users.generated.swift` (empty of declarations when the
    ///   manifest declares nothing);
    /// - `protos/geo/point.proto`, by its path from the workspace's folder → `Protos/protos_geo_point.pb.swift`,
    ///   for every proto under that folder (a comment alone when no manifest's `grpc.protos` needs it);
    /// - `APIDefaults+Workspace.swift`, as in the other layout.
    case filePerManifest = "file-per-manifest"
}

/// Rearranges what the renderer made into `OutputLayout.filePerManifest`.
struct FilePerManifestLayout {
    /// The workspace's folder, which manifest and proto names are relative to.
    let workspaceDirectory: URL

    /// `billing/users.yaml` → `billing.users.generated.swift`.
    static func manifestFile(_ relativePath: String) -> String {
        GeneratedPaths.manifestFolder(relativePath).replacingOccurrences(of: "/", with: ".") + ".generated.swift"
    }

    /// `protos/geo/point.proto` → `Protos/protos_geo_point.pb.swift`.
    static func protoFile(_ relativePath: String) -> String {
        var stem = relativePath
        if stem.hasSuffix(".proto") { stem.removeLast(".proto".count) }
        return GeneratedPaths.protoMessages(stem.replacingOccurrences(of: "/", with: "_") + ".pb.swift")
    }

    /// The files in this layout. `rendered` are the renderer's files in the other layout, which
    /// are merged by manifest; `protos` are protoc-gen-swift's, renamed by the path of the proto
    /// each came from (`origins`, by generated path).
    func arrange(
        rendered: [GeneratedFile],
        protos: [GeneratedFile],
        origins: [String: String],
        manifests: [String],
        into diagnostics: inout Diagnostics,
        at location: SourceLocation
    ) -> [GeneratedFile] {
        let protoPaths = Set(protos.map(\.path))
        var byManifest: [String: [GeneratedFile]] = [:]
        var files: [GeneratedFile] = []
        for file in rendered where !protoPaths.contains(file.path) {
            let folder = (file.path as NSString).deletingLastPathComponent
            if folder.isEmpty {
                files.append(file)
            } else {
                byManifest[folder, default: []].append(file)
            }
        }
        for manifest in manifests {
            let relative = LoadedWorkspace.relativePath(manifest, in: workspaceDirectory)
            let parts = byManifest[GeneratedPaths.manifestFolder(relative)] ?? []
            files.append(GeneratedFile(path: Self.manifestFile(relative), contents: Self.merge(parts, from: relative)))
        }

        var written: Set<String> = []
        for file in protos {
            guard let origin = origins[file.path], let relative = inside(origin) else {
                diagnostics.error("proto '\(origins[file.path] ?? file.path)' is outside the workspace's folder; the build plugin compiles only protos inside it, so move it there or add an import path that is", at: location)
                continue
            }
            written.insert(relative)
            files.append(GeneratedFile(path: Self.protoFile(relative), contents: file.contents))
        }
        for relative in protoFilesInWorkspace() where !written.contains(relative) {
            files.append(GeneratedFile(path: Self.protoFile(relative), contents: "\(Renderer.marker) for \(SwiftLiteral.commentLine(relative)), which no manifest's grpc.protos needs. Do not edit.\n"))
        }
        return files
    }

    /// Every `.proto` under the workspace's folder, by its path from there.
    private func protoFilesInWorkspace() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: workspaceDirectory.path) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".proto") { found.append(relative) }
        }
        return found.sorted()
    }

    /// `path` relative to the workspace's folder, or nil when outside it.
    private func inside(_ path: String) -> String? {
        let folder = workspaceDirectory.standardizedFileURL.path
        let file = URL(fileURLWithPath: path).standardizedFileURL.path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : nil
    }

    /// One file from a manifest's files: one header, the imports they need between them, then
    /// each file's declarations in the order given.
    static func merge(_ files: [GeneratedFile], from manifest: String) -> String {
        var imports: Set<String> = []
        var bodies: [String] = []
        for file in files {
            var lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false)[...]
            if lines.first?.hasPrefix(Renderer.marker) == true { lines = lines.dropFirst() }
            while let line = lines.first, line.isEmpty || isImport(line) {
                if !line.isEmpty { imports.insert(String(line)) }
                lines = lines.dropFirst()
            }
            while lines.last?.isEmpty == true { lines = lines.dropLast() }
            bodies.append(lines.joined(separator: "\n"))
        }
        var contents = "\(Renderer.marker) from \(SwiftLiteral.commentLine(manifest)). Do not edit.\n"
        if !imports.isEmpty { contents += "\n" + imports.sorted().joined(separator: "\n") + "\n" }
        for body in bodies where !body.isEmpty { contents += "\n" + body + "\n" }
        return contents
    }

    /// `import X`, with any attributes or access level before it (`@preconcurrency public import X`).
    private static func isImport(_ line: Substring) -> Bool {
        let words = line.split(separator: " ")
        guard let index = words.firstIndex(of: "import"), index < words.count - 1 else { return false }
        let accessLevels: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        return words[..<index].allSatisfy { $0.hasPrefix("@") || accessLevels.contains($0) }
    }
}
