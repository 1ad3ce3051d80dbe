import Foundation

/// What a run changes in the output folder, worked out before anything is touched.
public struct WritePlan: Sendable, Equatable {
    /// Files that are new or whose contents differ, to be (re)written.
    public var changed: [GeneratedFile] = []
    /// Paths whose contents are already right; never rewritten, so their timestamps stay.
    public var unchanged: [String] = []
    /// Earlier generated files that no source produces any more.
    public var stale: [String] = []

    public var isEmpty: Bool { changed.isEmpty && stale.isEmpty }
}

/// The generated folder apigen owns. It compares, writes and removes only inside `root`, and
/// removes only files that carry apigen's marker, never a file a person put there.
public struct GeneratedTree {
    public let root: URL
    private let fileManager = FileManager.default

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    public func plan(for files: [GeneratedFile]) -> WritePlan {
        var plan = WritePlan()
        let wanted = Set(files.map(\.path))
        for file in files {
            let existing = fileManager.contents(atPath: url(file.path).path)
            if existing == Data(file.contents.utf8) {
                plan.unchanged.append(file.path)
            } else {
                plan.changed.append(file)
            }
        }
        plan.stale = generatedFiles().filter { !wanted.contains($0) }
        return plan
    }

    /// Carries out a plan. Each file is written to a temporary name beside it and renamed into
    /// place, so a reader never sees half a file.
    public func apply(_ plan: WritePlan) throws {
        for file in plan.changed {
            let destination = url(file.path)
            try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).apigen-tmp")
            try Data(file.contents.utf8).write(to: temporary)
            // rename(2) replaces the destination atomically; FileManager's replace is not atomic everywhere.
            guard rename(temporary.path, destination.path) == 0 else {
                let code = errno
                try? fileManager.removeItem(at: temporary)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path, NSLocalizedDescriptionKey: "cannot move \(temporary.lastPathComponent) into place: \(String(cString: strerror(code)))"])
            }
        }
        for path in plan.stale {
            try fileManager.removeItem(at: url(path))
        }
        removeEmptyFolders()
    }

    private func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// Swift files under the root whose first line is apigen's marker, as root-relative paths.
    func generatedFiles() -> [String] {
        guard let enumerator = fileManager.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey]) else { return [] }
        var paths: [String] = []
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values?.isRegularFile == true, values?.isSymbolicLink != true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix), Self.startsWithMarker(url) else { continue }
            paths.append(String(path.dropFirst(prefix.count)))
        }
        return paths.sorted()
    }

    private static func startsWithMarker(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: Renderer.marker.utf8.count)) ?? Data()
        return head == Data(Renderer.marker.utf8)
    }

    /// Folders emptied by removing stale files go too (never the root itself).
    private func removeEmptyFolders() {
        for folder in ["APIs", "Models"] {
            let url = url(folder)
            if let contents = try? fileManager.contentsOfDirectory(atPath: url.path), contents.isEmpty {
                try? fileManager.removeItem(at: url)
            }
        }
    }
}
