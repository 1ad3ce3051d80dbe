import APIManifest
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
    /// Where this run builds the new tree, beside the old one: a name of its own, so that no
    /// other run's recovery can take it for a leftover.
    private let staging: URL

    public init(root: URL) {
        // The real folder: when the configured path is or passes through a symlink, apigen works
        // inside the folder it points to, and never replaces the link itself.
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
        let run = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        staging = self.root.deletingLastPathComponent().appendingPathComponent(Self.stagingPrefix(of: self.root) + run)
    }

    /// Compares `files` with the folder. Paths in `current` are known to be on disk as they should
    /// be (the render cache vouched for them): they are neither read nor rewritten.
    public func plan(for files: [GeneratedFile], current: [String] = []) -> WritePlan {
        var plan = WritePlan(unchanged: current)
        let known = Set(current)
        // One pass over the folder reads every other generated file once, for comparing and for
        // finding the stale ones.
        let existing = generatedContents(skipping: known)
        let wanted = Set(files.map(\.path)).union(known)
        for file in files {
            let onDisk = existing[file.path] ?? regularFileContents(file.path)
            if onDisk == Data(file.contents.utf8) {
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
    /// killed at any moment leaves the previous tree whole, or the new one whole. The caller holds
    /// the output folder's `WriteLock`.
    public func apply(_ plan: WritePlan) throws {
        let original = FileIdentity(path: root.path)
        if let original, !original.isDirectory { throw Problem.notAFolder(root.path) }
        try refuseLinkedFolders(on: plan.changed.map(\.path))
        try refuseSpecialFiles(at: plan.changed.map(\.path))
        recoverInterruptedRun()
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: staging) }

        let exists = original != nil
        if exists {
            try mirror(into: staging, skipping: Set(plan.changed.map(\.path)).union(plan.stale))
        }
        // Paths are joined as text: `URL.appendingPathComponent` asks the file system whether
        // each one is a folder, a `stat` per file. Each folder is made once.
        let stagingPath = staging.path
        let byFolder = Dictionary(grouping: plan.changed) { file in
            file.path.lastIndex(of: "/").map { String(file.path[..<$0]) } ?? ""
        }
        for folder in byFolder.keys where !folder.isEmpty {
            try fileManager.createDirectory(atPath: stagingPath + "/" + folder, withIntermediateDirectories: true)
        }
        try Self.write(Array(byFolder.values), into: stagingPath)
        Self.removeEmptyFolders(of: plan.stale, in: stagingPath)
        if exists {
            // The tree mirrored is the one replaced: a folder put in its place meanwhile would
            // otherwise go with the old tree.
            guard FileIdentity(path: root.path) == original else { throw Problem.replaced(root.path) }
            // Afterwards `staging` holds the old tree, which the deferred removal deletes.
            try DirectorySwap.exchange(root, with: staging, retired: retired)
        } else {
            try DirectorySwap.install(staging.path, at: root.path)
        }
    }

    /// A special file (a FIFO, a socket, a device) or a folder where a generated file goes:
    /// refused, since writing the file would drop it.
    private func refuseSpecialFiles(at paths: [String]) throws {
        for path in paths {
            guard let identity = FileIdentity(path: self.path(path)), let kind = identity.specialKind else { continue }
            throw Problem.inTheWay(path: path, kind: kind)
        }
    }

    /// A folder of the output that is a symbolic link would take a changed file wherever it
    /// points, outside the output folder: refused before anything is written.
    private func refuseLinkedFolders(on paths: [String]) throws {
        var checked: Set<String> = []
        for path in paths {
            var folder = ""
            for component in path.split(separator: "/").dropLast() {
                folder += folder.isEmpty ? String(component) : "/" + component
                guard checked.insert(folder).inserted else { continue }
                if FileIdentity(path: self.path(folder))?.type == S_IFLNK { throw Problem.linkedFolder(folder) }
            }
        }
    }

    /// What keeps a run from writing the output folder, found before anything is written.
    enum Problem: LocalizedError {
        /// A folder of the output is a symbolic link where a generated file would go.
        case linkedFolder(String)
        /// Something that is not a regular file (`kind`: a folder, a FIFO) where a generated file goes.
        case inTheWay(path: String, kind: String)
        /// A special file that could not be carried into the new tree.
        case cannotKeep(path: String, kind: String, reason: String)
        /// The output path names something other than a folder.
        case notAFolder(String)
        /// The output folder was replaced by another process during the run.
        case replaced(String)

        var errorDescription: String? {
            switch self {
            case .linkedFolder(let folder):
                "'\(folder)' in the output folder is a symbolic link, and apigen writes only inside its output folder: remove the link"
            case .inTheWay(let path, let kind):
                "'\(path)' in the output folder is \(kind), where apigen writes a generated file: remove it"
            case .cannotKeep(let path, let kind, let reason):
                "cannot keep '\(path)' in the output folder, \(kind): \(reason); move it out of the output folder"
            case .notAFolder(let path):
                "\(path) is not a folder; apigen writes a folder of generated files there"
            case .replaced(let path):
                "\(path) was replaced while apigen was writing it; run apigen again"
            }
        }
    }

    /// The names of staging folders start with this; anything so named is a run's leftover.
    private static func stagingPrefix(of root: URL) -> String { ".\(root.lastPathComponent).apigen-staging-" }
    /// Where the old tree goes while the new one takes its place, where exchanging is not atomic.
    private var retired: URL { root.deletingLastPathComponent().appendingPathComponent(".\(root.lastPathComponent).apigen-retired") }

    /// Undoes what a killed run left: the old tree back in place if it was moved aside, its
    /// staging folders gone. Only under the output folder's lock, which makes every staging folder
    /// beside the output a dead run's.
    public func recoverInterruptedRun() {
        DirectorySwap.recover(root, retired: retired)
        let parent = root.deletingLastPathComponent()
        let prefix = Self.stagingPrefix(of: root)
        for name in (try? fileManager.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix(prefix) {
            try? fileManager.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Recreates the current tree under `staging`, but for `skipped` paths: folders are made,
    /// files hard-linked (copied where links are not possible), symbolic links recreated.
    private func mirror(into staging: URL, skipping skipped: Set<String>) throws {
        guard let enumerator = fileManager.enumerator(atPath: root.path) else { return }
        let stagingPath = staging.path
        while let relative = enumerator.nextObject() as? String {
            guard !skipped.contains(relative) else { continue }
            let source = path(relative)
            let destination = stagingPath + "/" + relative
            switch enumerator.fileAttributes?[.type] as? FileAttributeType {
            case .typeDirectory?:
                try fileManager.createDirectory(atPath: destination, withIntermediateDirectories: true)
            case .typeSymbolicLink?:
                try fileManager.createSymbolicLink(atPath: destination, withDestinationPath: fileManager.destinationOfSymbolicLink(atPath: source))
            case .typeRegular?:
                if link(source, destination) != 0 { try fileManager.copyItem(atPath: source, toPath: destination) }
            default:
                // A FIFO, a socket or a device: a hard link keeps it; copying would read from it.
                if link(source, destination) != 0 {
                    let reason = String(cString: strerror(errno))
                    throw Problem.cannotKeep(path: relative, kind: FileIdentity(path: source)?.specialKind ?? "a special file", reason: reason)
                }
            }
        }
    }

    private func path(_ relative: String) -> String {
        root.path + "/" + relative
    }

    /// The contents of a regular file, or nil for anything else: opening a FIFO to read it would
    /// wait for a writer.
    private func regularFileContents(_ relative: String) -> Data? {
        guard let identity = FileIdentity(path: path(relative)), identity.isRegular else { return nil }
        return fileManager.contents(atPath: path(relative))
    }

    /// The Swift files under the root whose first line is apigen's marker, and the record of what
    /// the gRPC messages were made from (`ProtoRecord`), by root-relative path, with their
    /// contents; `skipped` paths are left out unread. Symbolic links are never followed.
    func generatedContents(skipping skipped: Set<String> = []) -> [String: Data] {
        guard let enumerator = fileManager.enumerator(atPath: root.path) else { return [:] }
        let marker = Data(Renderer.marker.utf8)
        var files: [String: Data] = [:]
        while let relative = enumerator.nextObject() as? String {
            let isRecord = relative == ProtoRecord.path
            guard relative.hasSuffix(".swift") || isRecord, !skipped.contains(relative),
                  enumerator.fileAttributes?[.type] as? FileAttributeType == .typeRegular,
                  let data = fileManager.contents(atPath: path(relative)),
                  data.starts(with: marker) || isRecord
            else { continue }
            files[relative] = data
        }
        return files
    }

    /// Writes new files of the staging folder, a folder per core at once: creating thousands of
    /// files is mostly time in the kernel, which lets one new file into a folder at a time, so
    /// two threads filling one folder would wait for each other.
    private static func write(_ folders: [[GeneratedFile]], into root: String) throws {
        let failures = concurrentMap(folders.count) { index -> (any Error)? in
            do {
                for file in folders[index] { try write(file.contents, to: root + "/" + file.path) }
                return nil
            } catch {
                return error
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
    }

    /// Writes a new file of the staging folder. Foundation's `Data.write` syncs each file to disk,
    /// which made writing thousands of files most of a cold run; the folder exchange is what
    /// makes a run all-or-nothing, and a staging folder left by a crash is never used.
    private static func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var text = text
        try text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }

    /// Folders emptied by removing stale files go too, deepest first (never the root itself).
    /// `rmdir` removes only empty folders, so one that still holds anything, a person's file
    /// included, stays.
    private static func removeEmptyFolders(of stale: [String], in root: String) {
        var folders: Set<String> = []
        for path in stale {
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                folders.insert(String(folder))
            }
        }
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            rmdir(root + "/" + folder)
        }
    }
}

/// What `lstat` says about a path: enough to tell a file from a folder from a special file, and
/// to notice a path now naming something else.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let type: mode_t

    init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        type = status.st_mode & S_IFMT
    }

    var isDirectory: Bool { type == S_IFDIR }
    var isRegular: Bool { type == S_IFREG }

    /// How an error names it when it is neither a regular file nor a symbolic link.
    var specialKind: String? {
        switch type {
        case S_IFREG, S_IFLNK: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a special file"
        }
    }
}
