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
        // The real folder: when the configured path is or passes through a symlink, apigen works
        // inside the folder it points to, and never replaces the link itself.
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
    }

    public func plan(for files: [GeneratedFile]) -> WritePlan {
        var plan = WritePlan()
        // One pass over the folder reads every generated file once, for comparing and for
        // finding the stale ones.
        let existing = generatedContents()
        let wanted = Set(files.map(\.path))
        for file in files {
            let current = existing[file.path] ?? fileManager.contents(atPath: url(file.path).path)
            if current == Data(file.contents.utf8) {
                plan.unchanged.append(file.path)
            } else {
                plan.changed.append(file)
            }
        }
        plan.stale = existing.keys.filter { !wanted.contains($0) }.sorted()
        return plan
    }

    /// Carries out a plan as one step. The new tree is built beside the old one (files kept as
    /// they are become hard links, so their dates stay), then the two folders are exchanged. A run
    /// killed at any moment leaves the previous tree whole, or the new one whole.
    public func apply(_ plan: WritePlan) throws {
        let parent = root.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(root.lastPathComponent).apigen-staging")
        let retired = parent.appendingPathComponent(".\(root.lastPathComponent).apigen-retired")
        DirectorySwap.recover(root, retired: retired)
        try? fileManager.removeItem(at: staging)
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: staging) }

        let exists = fileManager.fileExists(atPath: root.path)
        if exists {
            try mirror(into: staging, skipping: Set(plan.changed.map(\.path)).union(plan.stale))
        }
        for file in plan.changed {
            let destination = staging.appendingPathComponent(file.path)
            try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: destination)
        }
        Self.removeEmptyFolders(in: staging)
        if exists {
            // Afterwards `staging` holds the old tree, which the deferred removal deletes.
            try DirectorySwap.exchange(root, with: staging, retired: retired)
        } else {
            try DirectorySwap.rename(staging.path, to: root.path)
        }
    }

    /// Recreates the current tree under `staging`, but for `skipped` paths: folders are made,
    /// files hard-linked (copied where links are not possible), symbolic links recreated.
    private func mirror(into staging: URL, skipping skipped: Set<String>) throws {
        guard let enumerator = fileManager.enumerator(atPath: root.path) else { return }
        while let relative = enumerator.nextObject() as? String {
            guard !skipped.contains(relative) else { continue }
            let source = root.appendingPathComponent(relative).path
            let destination = staging.appendingPathComponent(relative).path
            let type = (try? fileManager.attributesOfItem(atPath: source)[.type]) as? FileAttributeType
            switch type {
            case .typeDirectory?:
                try fileManager.createDirectory(atPath: destination, withIntermediateDirectories: true)
            case .typeSymbolicLink?:
                try fileManager.createSymbolicLink(atPath: destination, withDestinationPath: fileManager.destinationOfSymbolicLink(atPath: source))
            case .typeRegular?:
                if link(source, destination) != 0 { try fileManager.copyItem(atPath: source, toPath: destination) }
            default:
                continue
            }
        }
    }

    private func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// The Swift files under the root whose first line is apigen's marker, by root-relative path,
    /// with their contents. Symbolic links are never followed.
    func generatedContents() -> [String: Data] {
        guard let enumerator = fileManager.enumerator(atPath: root.path) else { return [:] }
        let marker = Data(Renderer.marker.utf8)
        var files: [String: Data] = [:]
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift"),
                  enumerator.fileAttributes?[.type] as? FileAttributeType == .typeRegular,
                  let data = fileManager.contents(atPath: root.appendingPathComponent(relative).path),
                  data.starts(with: marker)
            else { continue }
            files[relative] = data
        }
        return files
    }

    /// Folders emptied by removing stale files go too (never the root itself).
    private static func removeEmptyFolders(in root: URL) {
        let fileManager = FileManager.default
        for folder in GeneratedPaths.folders {
            let url = root.appendingPathComponent(folder)
            if let contents = try? fileManager.contentsOfDirectory(atPath: url.path), contents.isEmpty {
                try? fileManager.removeItem(at: url)
            }
        }
    }
}
