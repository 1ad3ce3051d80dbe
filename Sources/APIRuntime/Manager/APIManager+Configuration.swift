extension APIManager {
    /// What a manager is made with. Each setting that a manifest can also set (timeout,
    /// frequency, retry, rate limit, connections per host) applies to the APIs whose manifest,
    /// and workspace, set none: a call resolves every setting in one order, its own options
    /// first, then its API's manifest, its workspace's defaults and last this configuration.
    public struct Configuration: Sendable {
        /// For workspaces whose defaults set no `maxConnectionsPerHost`, to hosts that
        /// `maxConnectionsByHost` does not name: how many connections each session (one per host)
        /// opens at most.
        public var maxConnectionsPerHost = 5
        /// How many connections a session opens at most to the hosts named here
        /// (`api.example.com`), over what any workspace says: the app knows its load, and the
        /// host its capacity, better than a manifest shared by every app that calls it.
        public var maxConnectionsByHost: [String: Int] = [:]
        /// The most sessions (one transport per host) kept open; the least recently used one
        /// closes first, once its calls in flight have finished.
        public var maxSessions = 64
        /// The message of the error a call gets when the `reject` policy refuses it.
        public var duplicateRequestMessage = "an identical request is already in flight"
        /// Base URLs to use instead of the ones the manifests declare, keyed by the declared URL:
        /// point a whole workspace at staging, or at a test server on loopback.
        public var baseURLOverrides: [String: String] = [:]
        /// How long opening a connection may take, for transports that take it.
        public var connectTimeout: Duration = .seconds(10)
        /// Replies larger than this fail with `invalidResponse` instead of exhausting memory.
        public var maxResponseBytes = 64 * 1024 * 1024
        /// Downloads (`response: file`) larger than this fail with `invalidResponse`, leaving
        /// nothing behind, instead of filling the disk (a small gzip bomb decompresses without end).
        public var maxDownloadBytes: Int64 = 64 << 30
        /// A line of an event stream or of JSON Lines (and a Server-Sent Event in all) longer than
        /// this ends the stream with `invalidResponse`, instead of being buffered without end.
        public var maxStreamLineBytes = 1 << 20
        /// Which redirects HTTP calls follow, and what they keep on the way: by default up to
        /// five, never from https to http, credential headers dropped across origins.
        public var redirects: RedirectPolicy = .standard
        /// Which cookies calls over URLSession keep and send: by default a jar of this manager's
        /// own, in memory, so that two managers (two accounts) never see each other's cookies.
        /// The manager adds them to each request and keeps what replies set. AsyncHTTPClient's
        /// calls keep none whatever this says (`TransportFactory.keepsCookies`).
        public var cookies: CookiePolicy = .perManager
        /// Trust roots, pins and client certificates, by host name (`api.example.com`); hosts
        /// not listed trust the system's roots and present no certificate.
        public var tls: [String: TLSSettings] = [:]
        /// The transport of REST, JSON-RPC and custom RPC calls: URLSession unless set
        /// (`.asyncHTTPClient` from the `APIAsyncHTTPClient` product is the choice for servers).
        public var httpTransport: TransportFactory = .urlSession
        /// The transport of gRPC calls; nil uses the one gRPC APIs bring (`APIGRPC`'s `.grpc`).
        public var grpcTransport: TransportFactory?
        /// Run around every call of every kind, the first outermost (logging, auth, metrics…).
        public var interceptors: [any APIInterceptor] = []
        /// For APIs whose manifest (API or workspace) sets none.
        public var timeout: Duration = .seconds(60)
        /// For APIs whose manifest (API or workspace) sets none.
        public var frequency: FrequencyPolicy = .allow
        /// For APIs whose manifest (API or workspace) sets none.
        public var retry: RetryPolicy = .none
        /// For APIs whose manifest (API or workspace) sets none; nil means no limit.
        public var rateLimit: RateLimit?
        /// Where the replies of APIs with a `cache:` are kept: in memory, 32 MiB at most, unless set.
        public var cache: CacheStorage = .memory()
        /// Canned answers instead of the network, for tests and previews.
        public var stubs: StubSet?
        /// What the manager reads the time from and waits on: deadlines, rate limits, retry
        /// pauses, stub delays, the grace period of `shutdown`. Tests give one they move by hand.
        public var clock: any APIClock = SystemClock()

        /// The defaults every setting documents.
        public init() {}
    }
}
