import NIOConcurrencyHelpers

/// The cache's replies in memory, by key: past `maxBytes`, the least recently used go first.
final class MemoryResponseStore: Sendable {
    /// Guards every reply.
    private let replies: NIOLockedValueBox<LeastRecentlyUsed<CachedReply>>

    init(maxBytes: Int) {
        replies = NIOLockedValueBox(LeastRecentlyUsed(maxCost: maxBytes))
    }

    /// The bound on `bytes`.
    var maxBytes: Int { replies.withLockedValue { $0.maxCost } }
    /// Bytes the replies hold, as `CachedReply.cost` counts them.
    var bytes: Int { replies.withLockedValue { $0.totalCost } }
    var count: Int { replies.withLockedValue { $0.count } }
    /// The keys, from the most recently used.
    var keys: [String] { replies.withLockedValue { $0.keysByRecency } }

    /// The reply stored for `key`, which becomes the most recently used.
    func reply(for key: String) -> CachedReply? {
        replies.withLockedValue { $0.value(for: key) }
    }

    /// The reply stored for `key`, its recency unchanged.
    func reply(peeking key: String) -> CachedReply? {
        replies.withLockedValue { $0.peek(key) }
    }

    /// Stores `reply` for `key`, replacing what was there. A reply larger than the whole bound
    /// is not kept.
    func store(_ reply: CachedReply, for key: String) {
        replies.withLockedValue { _ = $0.set(reply, cost: reply.cost, for: key) }
    }

    func remove(_ key: String) {
        replies.withLockedValue { _ = $0.remove(key) }
    }

    /// Removes every reply tagged `tag`; returns how many.
    @discardableResult
    func removeAll(tagged tag: String) -> Int {
        replies.withLockedValue { $0.removeAll { _, reply in reply.tags.contains(tag) } }
    }

    /// Removes every reply of one credential (a log-out); returns how many.
    @discardableResult
    func removeAll(scope: String) -> Int {
        replies.withLockedValue { $0.removeAll { _, reply in reply.scope == scope } }
    }

    /// Removes every reply `shouldRemove` picks by its key and its value; returns how many.
    @discardableResult
    func removeAll(where shouldRemove: (String, CachedReply) -> Bool) -> Int {
        replies.withLockedValue { $0.removeAll(where: shouldRemove) }
    }

    func removeAll() {
        replies.withLockedValue { $0 = LeastRecentlyUsed(maxCost: $0.maxCost) }
    }
}
