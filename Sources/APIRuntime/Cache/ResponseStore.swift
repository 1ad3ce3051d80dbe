/// Where a manager's cache keeps its replies: in memory (`MemoryResponseStore`), or on disk
/// (`APIDiskCache`'s SQLite store). Each is bounded in bytes, and drops its least recently used
/// replies past the bound.
///
/// Calls are short and synchronous (a lookup, a row): the cache stage makes them on the call's
/// task. A store that fails (a disk full, a file damaged) answers as if it held nothing; it never
/// throws into a call.
package protocol ResponseStore: Sendable {
    /// The bound on `bytes`.
    var maxBytes: Int { get }
    /// Bytes the replies hold, as `CachedReply.cost(key:)` counts them.
    var bytes: Int { get }
    /// Replies kept.
    var count: Int { get }

    /// The reply stored for `key`, which becomes the most recently used.
    func reply(for key: String) -> CachedReply?
    /// Stores `reply` for `key`, replacing what was there; returns whether it was kept (a reply
    /// larger than the whole bound is not).
    @discardableResult
    func store(_ reply: CachedReply, for key: String) -> Bool
    func remove(_ key: String)
    /// Removes every reply whose key starts with `prefix` (one call's, for every credential);
    /// returns how many.
    @discardableResult
    func removeAll(keyPrefix prefix: String) -> Int
    /// Removes every reply tagged `tag`; returns how many.
    @discardableResult
    func removeAll(tagged tag: String) -> Int
    /// Removes every reply of one credential's digest; returns how many.
    @discardableResult
    func removeAll(scope: String) -> Int
    func removeAll()

    /// A digest of `credential` that says nothing of it outside this store: what replies are
    /// kept under. The same credential gives the same digest for as long as the store lasts (a
    /// store on disk: across restarts).
    func scope(of credential: String) -> String
}
