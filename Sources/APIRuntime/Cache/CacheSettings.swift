/// How an API's replies are kept and reused: the manifest's `cache:`, on an API or in the
/// workspace's defaults.
///
/// ```yaml
/// cache:
///   ttl: 60                  # fresh for 60 s, whatever the server says
///   staleWhileRevalidate: 300
///   staleIfError: 86400
/// ```
///
/// Without `ttl` (`cache: http`), the server's `Cache-Control`, `Expires` and `Last-Modified`
/// decide, as they would for a private HTTP cache (RFC 9111), and the stale windows here apply
/// where the server names none. Only calls without side effects are cached: REST `GET` and
/// `HEAD`, and the JSON-RPC and gRPC methods a manifest marks `safe: true`.
public struct CacheSettings: Sendable, Equatable {
    /// Whose replies an entry serves.
    public enum Scope: Sendable, Equatable {
        /// Each credential its own entries: the token the authentication interceptor attaches,
        /// or the call's own `Authorization`, kept as a digest. The default.
        case credential
        /// One entry for every caller, for replies that are the same for everyone. A reply to a
        /// call that carried a credential is still kept per credential unless the server marks
        /// it `public` (RFC 9111, section 3.5).
        case shared
    }

    /// Seconds a reply is fresh for; nil follows the server's headers.
    public var ttl: Int?
    /// Seconds after going stale during which the reply is served at once while a request in
    /// the background refreshes it.
    public var staleWhileRevalidate: Int?
    /// Seconds after going stale during which the reply is served when the network or the
    /// server fails (a transport error, a timeout, a 5xx).
    public var staleIfError: Int?
    /// Whether a stale REST reply is checked with the server (`If-None-Match`,
    /// `If-Modified-Since`) rather than fetched again whole; a `304` refreshes it.
    public var revalidate: Bool
    /// Whose replies an entry serves.
    public var scope: Scope

    /// Settings that cache as the server's headers say unless `ttl` is given.
    public init(ttl: Int? = nil, staleWhileRevalidate: Int? = nil, staleIfError: Int? = nil, revalidate: Bool = true, scope: Scope = .credential) {
        self.ttl = ttl
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
        self.revalidate = revalidate
        self.scope = scope
    }

    /// `cache: http`: what the server's headers say, per credential.
    public static let http = CacheSettings()
}

/// How one call uses the cache of an API that has one (`APICallOptions.cachePolicy`), as Apollo's
/// fetch policies. `BaseAPI.cacheThenNetwork()` gives the cached value and then the fresh one.
public enum CachePolicy: Sendable, Equatable {
    /// A fresh stored reply if there is one, else the network (which revalidates a stale one).
    case cacheElseNetwork
    /// The network, whatever is stored; the reply replaces what was.
    case reload
    /// What is stored, fresh or stale, and never the network: `APIError.Reason.notCached` when
    /// nothing is.
    case cacheOnly
}

/// Where a call's value came from (`APIReply.source`).
public enum ReplySource: Sendable {
    /// The server answered it in full.
    case network
    /// A fresh stored reply, `age` seconds old; nothing was sent.
    case cache(age: Double)
    /// A stored reply the server said is unchanged (`304 Not Modified`).
    case revalidated
    /// A stored reply past its freshness, `age` seconds old, for `reason`.
    case stale(age: Double, reason: StaleReason)

    /// Why a stale reply was served.
    public enum StaleReason: Sendable {
        /// `staleWhileRevalidate`: a request in the background refreshes it.
        case revalidating
        /// `staleIfError`: the network or the server failed with this error.
        case error(APIError)
        /// The call asked for the cache only (`CachePolicy.cacheOnly`).
        case cacheOnly
    }

    /// Whether the value came from the cache rather than a full reply.
    public var isFromCache: Bool {
        if case .network = self { return false }
        return true
    }
}

/// What the cache did for a call, told to every interceptor (`APIInterceptor.observe`).
public enum CacheEvent: Sendable {
    /// A fresh stored reply answered the call; nothing was sent.
    case hit(age: Double)
    /// Nothing usable was stored; the call goes to the network.
    case miss
    /// The server said a stored reply is unchanged (`304`), which is refreshed and served.
    case revalidated
    /// A stale stored reply was served, for `reason`.
    case servedStale(age: Double, reason: ReplySource.StaleReason)
    /// A reply was stored, `bytes` long; the store now holds `totalBytes`.
    case stored(bytes: Int, totalBytes: Int)
}

extension CacheEvent {
    /// A short stable name, for logs and metric dimensions: `hit`, `miss`, `revalidated`,
    /// `stale` or `stored`.
    public var name: String {
        switch self {
        case .hit: "hit"
        case .miss: "miss"
        case .revalidated: "revalidated"
        case .servedStale: "stale"
        case .stored: "stored"
        }
    }

    /// What a log line adds to the name: ` (age 12 s)`.
    var details: String {
        func seconds(_ value: Double) -> String { "\(Int(value.rounded())) s" }
        switch self {
        case .hit(let age): return " (age \(seconds(age)))"
        case .miss, .revalidated: return ""
        case .servedStale(let age, .revalidating): return " (age \(seconds(age)), revalidating)"
        case .servedStale(let age, .cacheOnly): return " (age \(seconds(age)), cache only)"
        case .servedStale(let age, .error(let error)): return " (age \(seconds(age)), after \(error.reason))"
        case .stored(let bytes, let totalBytes): return " (\(bytes) bytes; \(totalBytes) in all)"
        }
    }
}
