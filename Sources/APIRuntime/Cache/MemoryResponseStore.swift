import NIOConcurrencyHelpers

/// The cache's replies in memory, by key: past `maxBytes`, the least recently used go first.
final class MemoryResponseStore: ResponseStore {
    private struct State {
        var replies: LeastRecentlyUsed<CachedReply>
        /// The accounts each credential was linked to, the first first, by the credential's digest.
        var accounts: [String: [String]] = [:]
    }

    /// Guards every reply and account link.
    private let state: NIOLockedValueBox<State>
    /// The key of digests: random for each store.
    private let digestKey: (UInt64, UInt64)
    /// Past this many account links, those of accounts with no reply left go.
    private static let linkLimit = 4096

    init(maxBytes: Int) {
        state = NIOLockedValueBox(State(replies: LeastRecentlyUsed(maxCost: maxBytes)))
        var random = SystemRandomNumberGenerator()
        digestKey = (random.next(), random.next())
    }

    var maxBytes: Int { state.withLockedValue { $0.replies.maxCost } }
    var bytes: Int { state.withLockedValue { $0.replies.totalCost } }
    var count: Int { state.withLockedValue { $0.replies.count } }
    /// The keys, from the most recently used.
    var keys: [String] { state.withLockedValue { $0.replies.keysByRecency } }

    func reply(for key: CacheKey) -> CachedReply? {
        state.withLockedValue { $0.replies.value(for: key.text) }
    }

    /// The reply stored for `key`, its recency unchanged.
    func reply(peeking key: String) -> CachedReply? {
        state.withLockedValue { $0.replies.peek(key) }
    }

    @discardableResult
    func store(_ reply: CachedReply, for key: CacheKey) -> Bool {
        let text = key.text
        return state.withLockedValue { state in
            let dropped = state.replies.set(reply, cost: reply.cost(key: text), for: text)
            return !dropped.contains { $0.key == text }
        }
    }

    func remove(_ key: CacheKey) {
        state.withLockedValue { _ = $0.replies.remove(key.text) }
    }

    @discardableResult
    func removeAll(call: String) -> Int {
        state.withLockedValue { $0.replies.removeAll { _, reply in reply.call == call } }
    }

    @discardableResult
    func removeAll(tagged tag: String) -> Int {
        state.withLockedValue { $0.replies.removeAll { _, reply in reply.tags.contains(tag) } }
    }

    @discardableResult
    func removeAll(account: String) -> Int {
        state.withLockedValue { state in
            state.accounts = state.accounts.compactMapValues { accounts in
                let kept = accounts.filter { $0 != account }
                return kept.isEmpty ? nil : kept
            }
            return state.replies.removeAll { _, reply in reply.account == account }
        }
    }

    func removeAll() {
        state.withLockedValue { state in
            state.replies = LeastRecentlyUsed(maxCost: state.replies.maxCost)
            state.accounts = [:]
        }
    }

    /// Two SipHash values, each keyed by this store's random key and the process's random seed:
    /// 128 bits, meaningless in another process.
    func digest(_ text: String) -> String {
        func half(_ key: UInt64) -> String {
            var hasher = Hasher()
            hasher.combine(key)
            hasher.combine(text)
            let digits = String(UInt64(bitPattern: Int64(hasher.finalize())), radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return half(digestKey.0) + half(digestKey.1)
    }

    func account(of credential: String) -> String {
        state.withLockedValue { $0.accounts[credential]?.first } ?? credential
    }

    func accounts(of credential: String) -> Set<String> {
        Set(state.withLockedValue { $0.accounts[credential] ?? [] }).union([credential])
    }

    func link(_ credentials: [String], to account: String) {
        state.withLockedValue { state in
            for credential in credentials where credential != account && state.accounts[credential]?.contains(account) != true {
                state.accounts[credential, default: []].append(account)
            }
            guard state.accounts.count > Self.linkLimit else { return }
            var live = Set<String>()
            state.replies.forEach { _, reply in if let account = reply.account { live.insert(account) } }
            state.accounts = state.accounts.compactMapValues { accounts in
                let kept = accounts.filter(live.contains)
                return kept.isEmpty ? nil : kept
            }
        }
    }
}
