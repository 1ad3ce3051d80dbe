import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on an output folder, held for a whole writing run: two runs over one folder
/// (two terminals, an editor's save hook and a build plugin, each with a cache folder of its own)
/// take turns instead of building over each other. An advisory `flock` on the folder that holds
/// the output folder: that folder stays put while the output is swapped, every run reaches the
/// same one whatever path it was given (the output's symbolic links are resolved first), and the
/// project gets no lock file. The lock goes when the process ends, however it ends.
final class WriteLock {
    private let descriptor: Int32

    /// Waits until no other run holds the lock for `root`, then holds it. Creates the folder
    /// that holds `root` if there is none yet.
    init(for root: URL) throws {
        let parent = root.deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        descriptor = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: parent, NSLocalizedDescriptionKey: "cannot open \(parent) to lock it: \(String(cString: strerror(errno)))"])
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: parent, NSLocalizedDescriptionKey: "cannot lock \(parent): \(reason)"])
            }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
