import Foundation

/// Where apigen keeps what it may reuse between runs (the render cache, compiled protos): the
/// user's cache folder, never the project. `APIGEN_CACHE_DIR` names another one; deleting it
/// only makes the next run slower.
enum CacheFolder {
    static var url: URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["APIGEN_CACHE_DIR"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        #if os(Linux)
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg).appendingPathComponent("apigen") }
        #endif
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("apigen")
    }
}
