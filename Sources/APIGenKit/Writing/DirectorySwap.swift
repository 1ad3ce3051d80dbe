import CDirectoryExchange
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a new directory where an old one was in a single step, so that a run killed at any
/// moment leaves either the whole old tree or the whole new one.
enum DirectorySwap {
    /// Exchanges the directories at `current` and `replacement`: afterwards `current` holds what
    /// `replacement` held and the other way round. Atomic where the system offers it (Linux's
    /// `renameat2(RENAME_EXCHANGE)`, Darwin's `renamex_np(RENAME_SWAP)`); elsewhere two renames
    /// through `retired`, which `recover` undoes if a run dies between them.
    static func exchange(_ current: URL, with replacement: URL, retired: URL) throws {
        if atomicExchange(current.path, replacement.path) { return }
        try rename(current.path, to: retired.path)
        try rename(replacement.path, to: current.path)
        try rename(retired.path, to: replacement.path)
    }

    /// After a run that died between the two renames of the fallback, puts the old tree back.
    static func recover(_ current: URL, retired: URL) {
        let manager = FileManager.default
        if !manager.fileExists(atPath: current.path), manager.fileExists(atPath: retired.path) {
            try? rename(retired.path, to: current.path)
        }
    }

    /// Puts the first tree in place: renames `staging` to `root` only if nothing is at `root`, so
    /// that a folder or file that appeared there since apigen looked is never replaced.
    static func install(_ staging: String, at root: String) throws {
        guard c_rename_no_replace(staging, root) == 0 else {
            let code = errno
            let reason = code == EEXIST
                ? "something appeared at \(root) while apigen was writing; run apigen again"
                : "cannot rename \(staging) to \(root): \(String(cString: strerror(code)))"
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: root, NSLocalizedDescriptionKey: reason])
        }
    }

    static func rename(_ from: String, to: String) throws {
        guard Foundation.rename(from, to) == 0 else {
            let code = errno
            throw CocoaError(.fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: to,
                NSLocalizedDescriptionKey: "cannot rename \(from) to \(to): \(String(cString: strerror(code)))",
            ])
        }
    }

    /// The system's atomic exchange; false where it has none (or the file system refuses it).
    private static func atomicExchange(_ a: String, _ b: String) -> Bool {
        c_directory_exchange(a, b) == 0
    }
}
