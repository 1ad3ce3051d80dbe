/// The defaults a workspace gives every API it declares (the `defaults:` of `workspace.yaml`).
///
/// An immutable class for the reason `APIDefinition` is one: each definition copies it.
public final class APIDefaults: Sendable {
    /// The base URL every API of the workspace is sent to unless it declares its own.
    public let baseURL: String?
    /// How long a call may take in all; nil leaves it to the manager's configuration.
    public let timeout: Duration?
    /// Headers every call of the workspace carries, before its API's.
    public let headers: [(name: String, value: String)]
    /// How many connections each session of the workspace opens at most; nil leaves it to the
    /// manager's configuration.
    public let maxConnectionsPerHost: Int?
    /// What to do with a call identical to one in flight; nil leaves it to the manager's configuration.
    public let frequency: FrequencyPolicy?
    /// How failed calls are retried; nil leaves it to the manager's configuration.
    public let retry: RetryPolicy?
    /// How often calls may be made; nil leaves it to the manager's configuration.
    public let rateLimit: RateLimit?
    /// Error bodies every API of the workspace declares (`defaults: responses:`).
    public let errorResponses: [ErrorResponse]
    /// How the workspace's cacheable APIs (`APIDefinition.isCacheable`) cache their replies,
    /// unless an API says otherwise; nil caches nothing.
    public let cache: CacheSettings?
    /// The origin of `baseURL`, worked out once: the app's own server.
    let origin: Origin?

    /// The defaults `workspace.yaml` declares; generated code makes one, `APIDefaults.workspace`.
    public init(
        baseURL: String? = nil,
        timeout: Duration? = nil,
        headers: [(name: String, value: String)] = [],
        maxConnectionsPerHost: Int? = nil,
        frequency: FrequencyPolicy? = nil,
        retry: RetryPolicy? = nil,
        rateLimit: RateLimit? = nil,
        errorResponses: [ErrorResponse] = [],
        cache: CacheSettings? = nil
    ) {
        self.baseURL = baseURL
        self.origin = Origin(baseURL)
        self.timeout = timeout
        self.headers = headers
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.frequency = frequency
        self.retry = retry
        self.rateLimit = rateLimit
        self.errorResponses = errorResponses
        self.cache = cache
    }
}
