import Foundation

/// Where a manager keeps the replies of APIs with a `cache:` (`APIManager.Configuration.cache`):
/// `.memory()`, or `.disk(…)` from `APIDiskCache`, which a restart of the app keeps.
public struct CacheStorage: Sendable {
    /// Opens the store, once, when the manager is made.
    let makeStore: @Sendable () -> any ResponseStore

    /// A storage whose store `makeStore` opens.
    package init(makeStore: @escaping @Sendable () -> any ResponseStore) {
        self.makeStore = makeStore
    }

    /// In memory, at most `maxBytes` (32 MiB unless given): gone when the manager is.
    public static func memory(maxBytes: Int = 32 << 20) -> CacheStorage {
        CacheStorage { MemoryResponseStore(maxBytes: maxBytes) }
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
/// the credential the call carried, as a keyed digest: never the token.
public final class ResponseCache: Sendable {
    let store: any ResponseStore
    let baseURLs: BaseURLResolver
    private let clock: any APIClock
    /// A wall-clock date and the manager's clock read at the same moment, so that entries are
    /// dated in wall-clock time (which a reply's `Date` and `Expires` speak) that moves as the
    /// manager's clock does (which tests move by hand).
    private let epoch: Date
    private let epochInstant: ContinuousClock.Instant

    init(storage: CacheStorage, clock: any APIClock, baseURLs: BaseURLResolver) {
        self.store = storage.makeStore()
        self.clock = clock
        self.baseURLs = baseURLs
        self.epoch = Date()
        self.epochInstant = clock.now
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
        return store.removeAll(keyPrefix: Self.identity(of: request, definition: definition) + Self.separator)
    }

    /// Removes every reply tagged `tag` (the manifest's `tags:`); returns how many.
    @discardableResult
    public func removeAll(tagged tag: String) -> Int {
        store.removeAll(tagged: tag)
    }

    /// Removes every reply kept for `credential` (the token a log-out discards); returns how many.
    @discardableResult
    public func removeAll(credential: String) -> Int {
        store.removeAll(scope: store.scope(of: credential))
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

    /// What separates a call's identity from its scope in a key: not a digit, so that one
    /// identity (length-prefixed parts, each starting with a digit) followed by it is never the
    /// start of another's key.
    static let separator = "#"

    /// The identity a call's replies are kept under: the duplicate gate's.
    static func identity(of request: APIRequest, definition: APIDefinition) -> String {
        CallIdentity.key(for: request, definition: definition, kind: definition.kind.description)
    }

    /// The key of a call's reply for `scope` (a credential's digest), or shared by all (`nil`).
    static func key(identity: String, scope: String?) -> String {
        identity + separator + (scope ?? "*")
    }
}
