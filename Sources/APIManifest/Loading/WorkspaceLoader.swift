import Foundation

/// Everything read from a workspace: its settings and every API file, in path order.
public struct LoadedWorkspace: Sendable {
    public var manifest: WorkspaceManifest
    public let files: [APIFileManifest]
    /// The folder holding the workspace file; relative paths in it are resolved against this.
    public let directory: URL
    /// Each API file's `relativePath`, worked out once: the builder asks for it per API and per
    /// type, and working it out is a URL standardization each time.
    private let relativePaths: [String: String]

    public init(manifest: WorkspaceManifest, files: [APIFileManifest], directory: URL) {
        self.manifest = manifest
        self.files = files
        self.directory = directory
        self.relativePaths = Dictionary(files.map { ($0.file, Self.relativePath($0.file, in: directory)) }, uniquingKeysWith: { first, _ in first })
    }

    public var outputDirectory: URL { resolve(manifest.output.value) }

    /// Puts an output folder and a sources folder given on the command line in place of the
    /// workspace file's `output:` and `sources:`; diagnostics about them still point at the keys.
    public mutating func override(output: String?, sources: String?) {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let output {
            manifest.output.value = URL(fileURLWithPath: output, relativeTo: cwd).standardizedFileURL.path
        }
        if let sources {
            manifest.sources = Located(URL(fileURLWithPath: sources, relativeTo: cwd).standardizedFileURL.path, at: manifest.sources?.location ?? manifest.output.location)
        }
    }
    public var templatesDirectory: URL? { manifest.templates.map { resolve($0.value) } }
    /// Where custom RPC delegates are looked for: `sources:`, else the folder holding the output.
    public var sourcesDirectory: URL { manifest.sources.map { resolve($0.value) } ?? outputDirectory.deletingLastPathComponent() }

    /// A path from the workspace file, made absolute against the workspace's folder.
    public func resolve(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        return directory.appendingPathComponent(path).standardizedFileURL
    }

    /// `apis/billing/users.yaml` → `billing/users.yaml`: a manifest's path as the workspace's
    /// folder sees it, so generated names and headers do not depend on the working directory.
    public func relativePath(_ path: String) -> String {
        relativePaths[path] ?? Self.relativePath(path, in: directory)
    }

    /// `path` relative to `directory` when inside it, else its last component.
    public static func relativePath(_ path: String, in directory: URL) -> String {
        // A file, said so: without the hint URL asks the file system whether it is a folder.
        let full = URL(fileURLWithPath: path, isDirectory: false).standardizedFileURL.path
        let base = directory.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : (path as NSString).lastPathComponent
    }
}

/// Finds and reads a workspace: the workspace file, then every other `.yaml`/`.yml` file under its folder.
public enum WorkspaceLoader {
    /// Reads the workspace whose settings are in `workspaceFile` (say `apis/workspace.yaml`).
    /// Returns nil when nothing usable could be read; `diagnostics` says why.
    public static func load(workspaceFile: String, into diagnostics: inout Diagnostics) -> LoadedWorkspace? {
        guard let text = readText(workspaceFile, into: &diagnostics),
              let root = YAMLDocument.parse(text, file: workspaceFile, into: &diagnostics),
              let manifest = WorkspaceReader.read(root, into: &diagnostics)
        else { return nil }

        let directoryPath = (workspaceFile as NSString).deletingLastPathComponent
        let directory = URL(fileURLWithPath: directoryPath.isEmpty ? "." : directoryPath).standardizedFileURL
        // Files parse independently, so they parse on every core; their results and diagnostics
        // are then taken in path order, so every run reports in one order.
        let paths = apiFilePaths(in: directoryPath, excluding: workspaceFile)
        let results = concurrentMap(paths.count) { index in
            var local = Diagnostics()
            let file = loadAPIFile(paths[index], into: &local)
            return (file: file, diagnostics: local)
        }
        for result in results { diagnostics.append(contentsOf: result.diagnostics) }
        return LoadedWorkspace(manifest: manifest, files: results.compactMap(\.file), directory: directory)
    }

    private static func loadAPIFile(_ path: String, into diagnostics: inout Diagnostics) -> APIFileManifest? {
        guard let text = readText(path, into: &diagnostics),
              let root = YAMLDocument.parse(text, file: path, into: &diagnostics)
        else { return nil }
        return APIFileReader.read(root, into: &diagnostics)
    }

    /// Parses API file text directly; for tests and tools that hold manifests in memory.
    public static func parseAPIFile(_ text: String, file: String, into diagnostics: inout Diagnostics) -> APIFileManifest? {
        YAMLDocument.parse(text, file: file, into: &diagnostics).map { APIFileReader.read($0, into: &diagnostics) }
    }

    /// Parses workspace file text directly; for tests and tools that hold manifests in memory.
    public static func parseWorkspace(_ text: String, file: String, into diagnostics: inout Diagnostics) -> WorkspaceManifest? {
        YAMLDocument.parse(text, file: file, into: &diagnostics).flatMap { WorkspaceReader.read($0, into: &diagnostics) }
    }

    /// Paths as the user would write them (`apis/users.yaml`), sorted so every run reads in one order.
    static func apiFilePaths(in directory: String, excluding workspaceFile: String) -> [String] {
        let root = directory.isEmpty ? "." : directory
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        let excluded = URL(fileURLWithPath: workspaceFile).standardizedFileURL.path
        var paths: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") else { continue }
            let path = directory.isEmpty ? relative : (directory as NSString).appendingPathComponent(relative)
            if URL(fileURLWithPath: path).standardizedFileURL.path != excluded {
                paths.append(path)
            }
        }
        return paths.sorted()
    }

    static func readText(_ path: String, into diagnostics: inout Diagnostics) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else {
            diagnostics.error("cannot read file", at: .file(path))
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            diagnostics.error("file is not valid UTF-8", at: .file(path))
            return nil
        }
        return text
    }
}
