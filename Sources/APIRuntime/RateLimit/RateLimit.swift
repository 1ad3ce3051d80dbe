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
