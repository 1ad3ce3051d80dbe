import Foundation

/// Where a manager keeps the replies of APIs with a `cache:` (`APIManager.Configuration.cache`).
public struct CacheStorage: Sendable {
    /// The most bytes kept; past it, the least recently used replies go first.
    let maxBytes: Int

    /// In memory, at most `maxBytes` (32 MiB unless given): gone when the manager is.
    public static func memory(maxBytes: Int = 32 << 20) -> CacheStorage {
        CacheStorage(maxBytes: maxBytes)
    }
}

/// The replies a manager keeps for APIs whose manifest says `cache:` (`APIManager.cache`): what a
/// log-out, a pull to refresh, or a test removes.
///
/// ```swift
/// manager.cache.removeAll(credential: token)   // log-out: that account's replies go
/// try manager.cache.remove(GetUserAPI(id: 7))  // one call's replies, for every credential
/// ```
///
/// Each reply is kept under its call's identity (what the duplicate gate compares calls by) and
/// the credential the call carried, as a keyed digest made in this process: never the token.
public final class ResponseCache: Sendable {
    let store: MemoryResponseStore
    let baseURLs: BaseURLResolver
    private let clock: any APIClock
    /// A wall-clock date and the manager's clock read at the same moment, so that entries are
    /// dated in wall-clock time (which a reply's `Date` and `Expires` speak) that moves as the
    /// manager's clock does (which tests move by hand).
    private let epoch: Date
    private let epochInstant: ContinuousClock.Instant
    /// The key of credential digests: random for each cache, so that a digest says nothing
    /// outside this process.
    private let digestKey: (UInt64, UInt64)

    init(storage: CacheStorage, clock: any APIClock, baseURLs: BaseURLResolver) {
        self.store = MemoryResponseStore(maxBytes: storage.maxBytes)
        self.clock = clock
        self.baseURLs = baseURLs
        self.epoch = Date()
        self.epochInstant = clock.now
        var random = SystemRandomNumberGenerator()
        self.digestKey = (random.next(), random.next())
    }

    /// Replies kept.
    public var count: Int { store.count }
    /// Bytes the kept replies hold: bodies, headers, and a small allowance for each.
    public var bytes: Int { store.bytes }
    /// The bound on `bytes`.
    public var maxBytes: Int { store.maxBytes }

    /// Removes every reply of the call `api` would make, for every credential; returns how many.
    /// Throws when the call cannot be made (no base URL, a parameter that cannot be encoded).
    @discardableResult
    public func remove<Response>(_ api: BaseAPI<Response>) throws(APIError) -> Int {
        let definition = api.definition, options = api.options
        let (base, _) = try baseURLs.baseURL(of: definition, options: options)
        let request = try api.parameters.makeRequest(for: definition, at: base, headers: options.headers, timeout: .zero, deadline: clock.now)
        let prefix = Self.identity(of: request, definition: definition) + Self.separator
        return store.removeAll { key, _ in key.hasPrefix(prefix) }
    }

    /// Removes every reply tagged `tag` (the manifest's `tags:`); returns how many.
    @discardableResult
    public func removeAll(tagged tag: String) -> Int {
        store.removeAll(tagged: tag)
    }

    /// Removes every reply kept for `credential` (the token a log-out discards); returns how many.
    @discardableResult
    public func removeAll(credential: String) -> Int {
        store.removeAll(scope: scope(of: credential))
    }

    /// Removes every reply.
    public func removeAll() {
        store.removeAll()
    }

    // MARK: Keys

    /// The time entries are dated by.
    var now: Date {
        epoch + (clock.now - epochInstant).inSeconds
    }

    /// A digest of `credential`: two SipHash values, each keyed by this cache's random key and
    /// the process's random seed, 128 bits in all.
    func scope(of credential: String) -> String {
        func half(_ key: UInt64) -> String {
            var hasher = Hasher()
            hasher.combine(key)
            hasher.combine(credential)
            let value = UInt64(bitPattern: Int64(hasher.finalize()))
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return half(digestKey.0) + half(digestKey.1)
    }

    /// What separates a call's identity from its scope in a key.
    static let separator = "\u{0}"

    /// The identity a call's replies are kept under: the duplicate gate's.
    static func identity(of request: APIRequest, definition: APIDefinition) -> String {
        CallIdentity.key(for: request, definition: definition, kind: definition.kind.description)
    }

    /// The key of a call's reply for `scope` (a credential's digest), or shared by all (`nil`).
    static func key(identity: String, scope: String?) -> String {
        identity + separator + (scope ?? "*")
    }
}
