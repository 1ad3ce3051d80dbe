import NIOConcurrencyHelpers

/// The cache's replies in memory, by key: past `maxBytes`, the least recently used go first.
final class MemoryResponseStore: ResponseStore {
    private struct State {
        var replies: LeastRecentlyUsed<CachedReply>
        /// The accounts each credential was linked to, the first first, by the credential's digest.
        var accounts: [String: [String]] = [:]
        /// What was removed while calls were in flight.
        var removals = RemovalLog()
    }

    /// Guards every reply, account link and removal.
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

    var removalMark: Int { state.withLockedValue { $0.removals.latest } }

    @discardableResult
    func store(_ reply: CachedReply, for key: CacheKey, linking credentials: [String], unlessRemovedSince mark: Int) -> Bool {
        let text = key.text
        return state.withLockedValue { state in
            let names = RemovalLog.names(call: reply.call, tags: reply.tags, account: key.account, credentials: credentials)
            guard !state.removals.removed(since: mark, anyOf: names) else { return false }
            let dropped = state.replies.set(reply, cost: reply.cost(key: text), for: text)
            guard !dropped.contains(where: { $0.key == text }) else { return false }
            if let account = key.account { Self.link(credentials, to: account, in: &state) }
            return true
        }
    }

    func remove(_ key: CacheKey) {
        state.withLockedValue { _ = $0.replies.remove(key.text) }
    }

    @discardableResult
    func removeAll(call: String) -> Int {
        state.withLockedValue { state in
            state.removals.note(["call:" + call])
            return state.replies.removeAll { _, reply in reply.call == call }
        }
    }

    @discardableResult
    func removeAll(tagged tag: String) -> Int {
        state.withLockedValue { state in
            state.removals.note(["tag:" + tag])
            return state.replies.removeAll { _, reply in reply.tags.contains(tag) }
        }
    }

    @discardableResult
    func removeAll(account: String) -> Int {
        state.withLockedValue { state in Self.removeAll(accounts: [account], in: &state) }
    }

    @discardableResult
    func removeAll(credential: String) -> Int {
        state.withLockedValue { state in
            state.removals.note(["credential:" + credential])
            return Self.removeAll(accounts: Set(state.accounts[credential] ?? []).union([credential]), in: &state)
        }
    }

    private static func removeAll(accounts: Set<String>, in state: inout State) -> Int {
        state.removals.note(accounts.map { "account:" + $0 })
        state.accounts = state.accounts.compactMapValues { linked in
            let kept = linked.filter { !accounts.contains($0) }
            return kept.isEmpty ? nil : kept
        }
        return state.replies.removeAll { _, reply in reply.account.map(accounts.contains) == true }
    }

    func removeAll() {
        state.withLockedValue { state in
            state.removals.noteEverything()
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

    func link(_ credentials: [String], to account: String) {
        state.withLockedValue { state in Self.link(credentials, to: account, in: &state) }
    }

    private static func link(_ credentials: [String], to account: String, in state: inout State) {
        for credential in credentials where credential != account && state.accounts[credential]?.contains(account) != true {
            state.accounts[credential, default: []].append(account)
        }
        guard state.accounts.count > linkLimit else { return }
        var live = Set<String>()
        state.replies.forEach { _, reply in if let account = reply.account { live.insert(account) } }
        state.accounts = state.accounts.compactMapValues { accounts in
            let kept = accounts.filter(live.contains)
            return kept.isEmpty ? nil : kept
        }
    }
}
