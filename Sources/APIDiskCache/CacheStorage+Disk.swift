import APIRuntime
import Foundation
import Logging

extension CacheStorage {
    /// In an SQLite database at `url` (made if it is missing), at most `maxBytes` (256 MiB unless
    /// given): replies a restart of the app keeps, for an offline read at launch.
    ///
    /// ```swift
    /// APIManager.bootstrap { $0.cache = .disk(at: cachesFolder.appending(path: "api-replies.sqlite")) }
    /// ```
    ///
    /// Warnings (a damaged file discarded, a disk that cannot be written) go to `logger`.
    public static func disk(at url: URL, maxBytes: Int = 256 << 20, logger: Logger = Logger(label: "apigen.cache")) -> CacheStorage {
        CacheStorage { DiskResponseStore(url: url, maxBytes: maxBytes, logger: logger) }
    }

    /// `disk(at:)` in the user's caches folder (`Library/Caches` on Apple platforms,
    /// `~/.cache` on Linux): `<folder>/<name>.sqlite`, which the system may clear when space runs
    /// low, as it may any cache.
    public static func disk(named name: String = "apigen-responses", maxBytes: Int = 256 << 20, logger: Logger = Logger(label: "apigen.cache")) -> CacheStorage {
        let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first ?? FileManager.default.temporaryDirectory
        return disk(at: folder.appendingPathComponent(name + ".sqlite"), maxBytes: maxBytes, logger: logger)
    }
}
