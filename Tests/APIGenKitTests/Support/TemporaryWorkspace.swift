import Foundation

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A workspace in a fresh temporary folder: `apis/` with the files given, output in `Generated/`.
struct TemporaryWorkspace {
    let root: URL

    init(files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("apigen-test-\(UUID().uuidString)")
        for (path, text) in files {
            try write(path, text)
        }
    }

    static let defaultWorkspaceFile = """
        module: TestClient
        output: ../Generated
        defaults:
          baseURL: https://example.com
        """

    /// A workspace whose only API file is `apis/api.yaml` holding `api`.
    init(api: String, workspace: String = defaultWorkspaceFile) throws {
        try self.init(files: ["apis/workspace.yaml": workspace, "apis/api.yaml": api])
    }

    var workspaceFile: String { root.appendingPathComponent("apis/workspace.yaml").path }
    var output: URL { root.appendingPathComponent("Generated") }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: root.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every file under `folder` with its contents and modification date: a snapshot to compare.
    func snapshot(_ folder: String = "Generated") -> [String: (contents: Data, modified: Date)] {
        let base = folder.isEmpty ? root : root.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.contentModificationDateKey]) else { return [:] }
        var result: [String: (Data, Date)] = [:]
        for case let url as URL in enumerator {
            let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey])
            guard values?.isRegularFile == true, let data = FileManager.default.contents(atPath: url.path) else { continue }
            result[String(url.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count + 1))] = (data, values?.contentModificationDate ?? .distantPast)
        }
        return result
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
