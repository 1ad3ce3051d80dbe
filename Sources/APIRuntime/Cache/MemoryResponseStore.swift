import NIOConcurrencyHelpers

/// The cache's replies in memory, by key: past `maxBytes`, the least recently used go first.
final class MemoryResponseStore: ResponseStore {
    /// Guards every reply.
    private let replies: NIOLockedValueBox<LeastRecentlyUsed<CachedReply>>
    /// The key of credential digests: random for each store.
    private let digestKey: (UInt64, UInt64)

    init(maxBytes: Int) {
        replies = NIOLockedValueBox(LeastRecentlyUsed(maxCost: maxBytes))
        var random = SystemRandomNumberGenerator()
        digestKey = (random.next(), random.next())
    }

    var maxBytes: Int { replies.withLockedValue { $0.maxCost } }
    var bytes: Int { replies.withLockedValue { $0.totalCost } }
    var count: Int { replies.withLockedValue { $0.count } }
    /// The keys, from the most recently used.
    var keys: [String] { replies.withLockedValue { $0.keysByRecency } }

    func reply(for key: String) -> CachedReply? {
        replies.withLockedValue { $0.value(for: key) }
    }

    /// The reply stored for `key`, its recency unchanged.
    func reply(peeking key: String) -> CachedReply? {
        replies.withLockedValue { $0.peek(key) }
    }

    @discardableResult
    func store(_ reply: CachedReply, for key: String) -> Bool {
        replies.withLockedValue { replies in
            let dropped = replies.set(reply, cost: reply.cost(key: key), for: key)
            return !dropped.contains { $0.key == key }
        }
    }

    func remove(_ key: String) {
        replies.withLockedValue { _ = $0.remove(key) }
    }

    @discardableResult
    func removeAll(keyPrefix prefix: String) -> Int {
        replies.withLockedValue { $0.removeAll { key, _ in key.hasPrefix(prefix) } }
    }

    @discardableResult
    func removeAll(tagged tag: String) -> Int {
        replies.withLockedValue { $0.removeAll { _, reply in reply.tags.contains(tag) } }
    }

    @discardableResult
    func removeAll(scope: String) -> Int {
        replies.withLockedValue { $0.removeAll { _, reply in reply.scope == scope } }
    }

    func removeAll() {
        replies.withLockedValue { $0 = LeastRecentlyUsed(maxCost: $0.maxCost) }
    }

    /// Two SipHash values, each keyed by this store's random key and the process's random seed:
    /// 128 bits, meaningless in another process.
    func scope(of credential: String) -> String {
        func half(_ key: UInt64) -> String {
            var hasher = Hasher()
            hasher.combine(key)
            hasher.combine(credential)
            let digits = String(UInt64(bitPattern: Int64(hasher.finalize())), radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return half(digestKey.0) + half(digestKey.1)
    }
}
