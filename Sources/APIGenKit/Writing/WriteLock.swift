import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on an output folder, held for a whole writing run: two runs over one folder
/// (two terminals, an editor's save hook and a build) take turns instead of removing each
/// other's staging folder. An advisory `flock` on a file in apigen's cache folder named after the
/// output folder's path, so the project gets no file of it; the lock goes when the process ends,
/// however it ends.
final class WriteLock {
    private let descriptor: Int32

    /// Waits until no other run holds the lock for `root`, then holds it.
    init(for root: URL) throws {
        let path = Self.path(for: root)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "cannot open the lock file \(path): \(String(cString: strerror(errno)))"])
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "cannot lock \(path): \(reason)"])
            }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// `<cache>/locks/<fingerprint of the folder's path>.lock`.
    static func path(for root: URL) -> String {
        var fingerprint = Fingerprint()
        fingerprint.add(root.path)
        return CacheFolder.url.appendingPathComponent("locks/\(fingerprint).lock").path
    }
}
