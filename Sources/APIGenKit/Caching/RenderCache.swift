import Foundation

/// What the last successful run left in one output folder: each file's fingerprint (what it was
/// rendered from) and its size, modification time and inode then. A later run that would render a
/// file from the same fingerprint, and finds the file exactly as it was left, knows its bytes
/// without rendering or reading it: a no-op run costs loading and validating, not rendering.
///
/// It lives in the user's cache folder (`CacheFolder`, `~/.cache/apigen` on Linux), and
/// only `apigen` (write mode) uses it: `apigen check` always renders and compares every file.
/// Anything unreadable or stale in it just means a file is rendered again.
struct RenderCache: Sendable {
    struct Entry: Equatable, Sendable {
        var fingerprint: Fingerprint
        var stamp: FileStamp
    }

    private(set) var entries: [String: Entry] = [:]
    private static let header = "apigen render cache 1"

    init() {}

    /// True when `path` (inside the folder at `root`) was written from `fingerprint` and has not
    /// changed since.
    func isCurrent(_ path: String, fingerprint: Fingerprint, in root: String) -> Bool {
        guard let entry = entries[path], entry.fingerprint == fingerprint else { return false }
        return FileStamp(of: root + "/" + path) == entry.stamp
    }

    /// This cache brought up to date with the files `fingerprints` names as they are now in
    /// `root`. Entries of `current` paths were just checked against the disk and are kept as
    /// they are; the others are read again. Returns nil when nothing changed.
    func updated(with fingerprints: [String: Fingerprint], current: Set<String>, in root: String) -> RenderCache? {
        var cache = RenderCache()
        for (path, fingerprint) in fingerprints {
            if current.contains(path), let entry = entries[path] {
                cache.entries[path] = entry
            } else if let stamp = FileStamp(of: root + "/" + path) {
                cache.entries[path] = Entry(fingerprint: fingerprint, stamp: stamp)
            }
        }
        return cache.entries == entries ? nil : cache
    }

    // MARK: Storage

    static func load(for root: URL) -> RenderCache {
        var cache = RenderCache()
        guard let data = FileManager.default.contents(atPath: file(for: root).path) else { return cache }
        // Split on bytes, not `Character`s: the file has a line for every generated file.
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.utf8.split(separator: UInt8(ascii: "\n")).map(Substring.init)
        guard lines.first == Substring(header) else { return cache }
        for line in lines.dropFirst() {
            let fields = line.utf8.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map(Substring.init)
            guard fields.count == 5, let fingerprint = Fingerprint(fields[1]),
                  let size = Int64(fields[2]), let modified = Int64(fields[3]), let inode = UInt64(fields[4]) else { continue }
            cache.entries[String(fields[0])] = Entry(fingerprint: fingerprint, stamp: FileStamp(size: size, modified: modified, inode: inode))
        }
        return cache
    }

    /// Saves the cache; failing to is harmless (the next run renders everything).
    func save(for root: URL) {
        let target = Self.file(for: root)
        var text = Self.header + "\n"
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) where !path.contains("\t") && !path.contains("\n") {
            text += "\(path)\t\(entry.fingerprint)\t\(entry.stamp.size)\t\(entry.stamp.modified)\t\(entry.stamp.inode)\n"
        }
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: target, options: .atomic)
    }

    /// Removes the cache of `root`, when what it describes can no longer be trusted.
    static func forget(_ root: URL) {
        try? FileManager.default.removeItem(at: file(for: root))
    }

    /// One file per output folder, named by a hash of the folder's path.
    static func file(for root: URL) -> URL {
        var name = Fingerprint()
        name.add(root.path)
        return CacheFolder.url.appendingPathComponent("\(name).cache")
    }
}
