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
/// try manager.cache.remove(GetUserAPI(id: 7))  // one call's replies, for every account
/// ```
///
/// Each reply is kept under its call's identity as sent (what the duplicate gate compares calls
/// by, credentials aside) and the account whose credentials the call carried. An account is a
/// set of credentials: the first a call carried, and each that replaced one of them (the same
/// fields, other values) when the call was sent again at an interceptor's request: a refreshed
/// token. A token provider may name it instead (`TokenProvider.account()`). Every identity,
/// credential and header value is kept as a keyed digest: never the text, never the token.
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

    /// Removes every reply of the call `api` would make, for every account and whatever
    /// interceptors add to it; returns how many. Throws when the call cannot be made (no base
    /// URL, a parameter that cannot be encoded).
    @discardableResult
    public func remove<Response>(_ api: BaseAPI<Response>) throws(APIError) -> Int {
        let definition = api.definition, options = api.options
        let (base, _) = try baseURLs.baseURL(of: definition, options: options)
        let request = try api.parameters.makeRequest(for: definition, at: base, headers: options.headers, timeout: .zero, deadline: clock.now)
        return store.removeAll(call: store.digest(Self.identity(of: request, definition: definition)))
    }

    /// Removes every reply tagged `tag` (the manifest's `tags:`); returns how many.
    @discardableResult
    public func removeAll(tagged tag: String) -> Int {
        store.removeAll(tagged: tag)
    }

    /// Removes every reply of the account that sent `credential` (what a log-out discards), and
    /// of every credential of that account: the tokens refreshed before and after it. A credential
    /// is named as a call sent it: a bearer token (with or without `Bearer `), the value of a
    /// credential header (`X-API-Key`), a session cookie (`sid=…`) or a whole `Cookie` line.
    /// Returns how many replies went.
    @discardableResult
    public func removeAll(credential: String) -> Int {
        store.removeAll(credential: store.digest(credential))
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

    /// The identity of a call as planned: what `remove(_:)` finds its replies by.
    static func identity(of request: APIRequest, definition: APIDefinition) -> String {
        CallIdentity.key(for: request, body: request.body, definition: definition, kind: definition.kind.description)
    }

    /// The account a request as sent is made for: the one its token provider names, else the one
    /// its credentials belong to; nil for a request with neither.
    func account(of request: OutgoingRequest) -> String? {
        if let named = request.request.account { return store.digest(named) }
        return request.credentials.map(account(of:))
    }

    /// The account `credentials` belong to: the one they were linked to, else their own.
    func account(of credentials: Credentials) -> String {
        store.account(of: store.digest(credentials.text))
    }

    /// The digests of `credentials` and of every name a log-out may give them.
    func digests(of credentials: Credentials?) -> [String] {
        credentials.map { ([$0.text] + $0.names).map(store.digest) } ?? []
    }

    /// Records that `credentials` belong to `account`, under every name a log-out may give them.
    func link(_ credentials: Credentials, to account: String) {
        store.link(digests(of: credentials), to: account)
    }
}
