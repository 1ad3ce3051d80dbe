/// The defaults a workspace gives every API it declares (the `defaults:` of `workspace.yaml`).
public struct APIDefaults: Sendable {
    public var baseURL: String?
    public var timeout: Duration
    public var headers: [(name: String, value: String)]
    public var maxConnectionsPerHost: Int
    public var frequency: FrequencyPolicy
    /// How failed calls are retried; nil leaves it to the manager's configuration.
    public var retry: RetryPolicy?

    public init(
        baseURL: String? = nil,
        timeout: Duration = .seconds(60),
        headers: [(name: String, value: String)] = [],
        maxConnectionsPerHost: Int = 5,
        frequency: FrequencyPolicy = .allow,
        retry: RetryPolicy? = nil
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.headers = headers
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.frequency = frequency
        self.retry = retry
    }
}

/// What the manager does with a call identical to one already in flight.
public enum FrequencyPolicy: String, Sendable {
    /// Send it anyway.
    case allow
    /// Fail the new call at once with `APIError.Reason.duplicateRequest`.
    case reject
}
