/// The defaults a workspace gives every API it declares (the `defaults:` of `workspace.yaml`).
///
/// An immutable class for the reason `APIDefinition` is one: each definition copies it.
public final class APIDefaults: Sendable {
    public let baseURL: String?
    /// How long a call may take in all; nil leaves it to the manager's configuration.
    public let timeout: Duration?
    public let headers: [(name: String, value: String)]
    public let maxConnectionsPerHost: Int
    /// What to do with a call identical to one in flight; nil leaves it to the manager's configuration.
    public let frequency: FrequencyPolicy?
    /// How failed calls are retried; nil leaves it to the manager's configuration.
    public let retry: RetryPolicy?
    /// How often calls may be made; nil leaves it to the manager's configuration.
    public let rateLimit: RateLimit?
    /// Error bodies every API of the workspace declares (`defaults: responses:`).
    public let errorResponses: [ErrorResponse]

    public init(
        baseURL: String? = nil,
        timeout: Duration? = nil,
        headers: [(name: String, value: String)] = [],
        maxConnectionsPerHost: Int = 5,
        frequency: FrequencyPolicy? = nil,
        retry: RetryPolicy? = nil,
        rateLimit: RateLimit? = nil,
        errorResponses: [ErrorResponse] = []
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.headers = headers
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.frequency = frequency
        self.retry = retry
        self.rateLimit = rateLimit
        self.errorResponses = errorResponses
    }
}

/// What the manager does with a call identical to one already in flight.
public enum FrequencyPolicy: String, Sendable {
    /// Send it anyway.
    case allow
    /// Fail the new call at once with `APIError.Reason.duplicateRequest`.
    case reject
    /// Let the new call wait for the one in flight and share its result.
    case coalesce
}

/// At most `calls` calls every `interval` (a token bucket: bursts up to `calls`, refilled
/// evenly), counted per API or per host; a call over the limit waits for its turn or fails.
public struct RateLimit: Sendable, Equatable {
    public enum Scope: String, Sendable {
        /// One bucket per API.
        case api
        /// One bucket per scheme, host and port, shared by every API calling it.
        case host
    }

    public enum Behavior: String, Sendable {
        /// Wait for a token (within the call's timeout).
        case wait
        /// Fail at once with `APIError.Reason.rateLimited`.
        case fail
    }

    public var calls: Int
    public var interval: Duration
    public var scope: Scope
    public var behavior: Behavior

    public init(calls: Int, per interval: Duration, scope: Scope = .api, behavior: Behavior = .wait) {
        self.calls = max(1, calls)
        self.interval = interval
        self.scope = scope
        self.behavior = behavior
    }
}
