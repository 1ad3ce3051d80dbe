import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's size, modification time (nanoseconds) and inode: what tells that it is untouched.
struct FileStamp: Equatable, Sendable {
    var size: Int64
    var modified: Int64
    var inode: UInt64

    init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    /// nil when there is no regular file at `path` (a symbolic link is not followed).
    init?(of path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        self.init(size: Int64(info.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec), inode: UInt64(info.st_ino))
    }
}
