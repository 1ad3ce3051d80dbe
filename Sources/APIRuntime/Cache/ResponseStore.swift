/// Where a manager's cache keeps its replies: in memory (`MemoryResponseStore`), or on disk
/// (`APIDiskCache`'s SQLite store). Each is bounded in bytes, and drops its least recently used
/// replies past the bound.
///
/// Calls are short and synchronous (a lookup, a row): the cache stage makes them on the call's
/// task. A store that fails (a disk full, a file damaged) answers as if it held nothing; it never
/// throws into a call.
///
/// A store is handed digests (`digest(_:)`, keyed by a key of the store's own), never an identity,
/// a credential or a header value: what it keeps, on disk too, says nothing of them.
package protocol ResponseStore: Sendable {
    /// The bound on `bytes`.
    var maxBytes: Int { get }
    /// Bytes the replies hold, as `CachedReply.cost(key:)` counts them.
    var bytes: Int { get }
    /// Replies kept.
    var count: Int { get }

    /// The reply stored for `key`, which becomes the most recently used.
    func reply(for key: CacheKey) -> CachedReply?
    /// Stores `reply` for `key`, replacing what was there, and links `credentials` (the digests of
    /// the credentials the call carried, and of the names a log-out may give them) to the key's
    /// account; unless a removal numbered after `mark` (`removalMark`, read before the call was
    /// sent) took away the reply's call, one of its tags, its account or one of those credentials:
    /// the reply is older than that removal. Returns whether it was kept (a reply larger than the
    /// whole bound is not).
    ///
    /// The removals are those of every store on the same storage: on disk, those another manager
    /// or process made too.
    @discardableResult
    func store(_ reply: CachedReply, for key: CacheKey, linking credentials: [String], unlessRemovedSince mark: Int) -> Bool
    /// The number of the latest removal.
    var removalMark: Int { get }
    /// Removes one reply (one that no longer decodes); not a removal calls in flight are kept from.
    func remove(_ key: CacheKey)
    /// Removes every reply of one call (`CachedReply.call`), for every account; returns how many.
    @discardableResult
    func removeAll(call: String) -> Int
    /// Removes every reply tagged `tag`; returns how many.
    @discardableResult
    func removeAll(tagged tag: String) -> Int
    /// Removes every reply of `account`, and every credential linked to it; returns how many
    /// replies.
    @discardableResult
    func removeAll(account: String) -> Int
    /// Removes every reply of each account the credential with digest `credential` names (those
    /// it was linked to, and its own), and their linked credentials; returns how many replies. A
    /// call of the credential in flight stores nothing after it, linked yet or not.
    @discardableResult
    func removeAll(credential: String) -> Int
    func removeAll()

    /// A digest of `text` that says nothing of it outside this store: what a credential, an
    /// identity and a `Vary`'d header value are kept as. The same text gives the same digest for
    /// as long as the store lasts (a store on disk: across restarts).
    func digest(_ text: String) -> String
    /// The account the credential with digest `credential` belongs to: the first account it was
    /// linked to, else the digest itself (a credential first seen starts an account of its own).
    func account(of credential: String) -> String
    /// Records that the credentials with digests `credentials` belong to `account` too: a token
    /// refreshed from one of the account's, and the names a log-out may give them.
    func link(_ credentials: [String], to account: String)
}

extension ResponseStore {
    /// Stores `reply` for `key`, whatever was removed before: for tests and tools.
    @discardableResult
    package func store(_ reply: CachedReply, for key: CacheKey) -> Bool {
        store(reply, for: key, linking: [], unlessRemovedSince: removalMark)
    }
}

/// Where the cache keeps one reply: the digest of the call's identity (`CallIdentity`,
/// credentials aside) and the account whose credentials it carried; no account for a reply
/// shared by every caller.
package struct CacheKey: Sendable, Hashable {
    package let identity: String
    package let account: String?

    /// The key as one text: the identity's digest, `#`, and the account, or `*` for none.
    package var text: String {
        identity + "#" + (account ?? "*")
    }
}
