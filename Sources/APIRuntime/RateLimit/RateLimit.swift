/// At most `calls` calls every `interval` (a token bucket: bursts up to `calls`, refilled
/// evenly), counted per API or per host; a call over the limit waits for its turn or fails.
public struct RateLimit: Sendable, Equatable {
    /// Which calls share a bucket.
    public enum Scope: String, Sendable {
        /// One bucket per API.
        case api
        /// One bucket per scheme, host and port, shared by every API calling it.
        case host
    }

    /// What a call over the limit does.
    public enum Behavior: String, Sendable {
        /// Wait for a token (within the call's timeout).
        case wait
        /// Fail at once with `APIError.Reason.rateLimited`.
        case fail
    }

    /// How many calls each interval allows, and the largest burst; at least 1.
    public var calls: Int
    /// The interval over which `calls` are allowed.
    public var interval: Duration
    /// Whether each API has its own bucket or every API of a host shares one.
    public var scope: Scope
    /// Whether a call over the limit waits for its turn or fails.
    public var behavior: Behavior

    /// At most `calls` calls every `interval`, in buckets by `scope`; a call over the limit behaves as `behavior` says.
    public init(calls: Int, per interval: Duration, scope: Scope = .api, behavior: Behavior = .wait) {
        self.calls = max(1, calls)
        self.interval = interval
        self.scope = scope
        self.behavior = behavior
    }
}
