import HTTPTypes

/// What an API is, independent of any one call: its name, wire shape and settings.
///
/// Generated code declares one per API as a `static let`; settings it leaves nil fall back to the
/// workspace defaults, and a call can override them again on its instance.
public struct APIDefinition: Sendable {
    public var name: String
    public var method: HTTPRequest.Method
    /// The path template, with `{name}` placeholders filled from path parameters.
    public var path: String
    public var baseURL: String?
    public var headers: [(name: String, value: String)]
    public var timeout: Duration?
    public var frequency: FrequencyPolicy?
    /// How failed calls are retried; nil falls back to the workspace's, then the manager's.
    public var retry: RetryPolicy?
    /// How often calls may be made; nil falls back to the workspace's, then the manager's.
    public var rateLimit: RateLimit?
    /// Headers whose values make two calls different for the frequency policy (a user id, say).
    public var significantHeaders: [String]
    /// Groups to cancel together: `APIManager.cancel(tag:)`.
    public var tags: [String]
    /// Names of global interceptors this API goes without (a sign-in call skips `authentication`).
    public var skippedInterceptors: [String]
    /// What the API answers when the manager answers from samples instead of the network.
    public var sample: StubResponse?
    /// The remote method of an RPC API (JSON-RPC or a custom protocol); nil for REST.
    public var rpc: RPCMethod?
    /// Whether the workspace's default headers are sent. gRPC APIs say no: those are HTTP
    /// headers for REST and JSON-RPC, and gRPC metadata come from the gRPC manifest instead.
    public var inheritsDefaultHeaders: Bool
    public var defaults: APIDefaults

    public init(
        name: String,
        method: HTTPRequest.Method,
        path: String,
        baseURL: String? = nil,
        headers: [(name: String, value: String)] = [],
        timeout: Duration? = nil,
        frequency: FrequencyPolicy? = nil,
        retry: RetryPolicy? = nil,
        rateLimit: RateLimit? = nil,
        significantHeaders: [String] = [],
        tags: [String] = [],
        skippedInterceptors: [String] = [],
        sample: StubResponse? = nil,
        rpc: RPCMethod? = nil,
        inheritsDefaultHeaders: Bool = true,
        defaults: APIDefaults
    ) {
        self.name = name
        self.method = method
        self.path = path
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
        self.frequency = frequency
        self.retry = retry
        self.rateLimit = rateLimit
        self.significantHeaders = significantHeaders
        self.tags = tags
        self.skippedInterceptors = skippedInterceptors
        self.sample = sample
        self.rpc = rpc
        self.inheritsDefaultHeaders = inheritsDefaultHeaders
        self.defaults = defaults
    }
}
