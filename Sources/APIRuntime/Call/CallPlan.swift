import Foundation
import HTTPTypes

/// One call, resolved before anything is sent: who makes it, what goes on the wire, by when,
/// under which policies, and through which session and transport. `APIManager.plan` makes it, the
/// one place a call's settings are chosen; the stages that run the call only read it. A JSON-RPC
/// batch and a background revalidation are calls made from copies of plans, with the fields they
/// change set on the copy.
struct CallPlan: Sendable {
    /// Who makes the call: an API instance, or a JSON-RPC batch of planned calls.
    var caller: Caller
    var definition: APIDefinition
    /// How the call's protocol wraps the request and unwraps the reply; nil is plain REST.
    var delegate: (any RPCDelegate)?
    /// The call as its delegate sees it (remote method, request id); nil for REST.
    var rpc: RPCCall?
    /// The request as planned, wrapped by the delegate; each attempt sends it as `Preparation`
    /// makes it (the manager's cookies, the interceptors' changes).
    var request: APIRequest
    /// The request's body before the delegate wrapped it: an RPC call's parameters, which its
    /// identity reads rather than an envelope whose id differs on every call.
    var unwrappedBody: Data?
    /// The identity of the call as planned, credentials aside (`CallIdentity`): what the cache
    /// finds one call's replies by, whatever interceptors add and whoever made them
    /// (`ResponseCache.remove(_:)`). Empty when the call has no cache.
    var callIdentity: String
    /// What interceptors are told of the call on its first attempt.
    var context: APICallContext
    /// When the call's time runs out, on the manager's clock: every stage ends by then.
    var deadline: ContinuousClock.Instant
    /// The time limit the deadline came from, which a call that runs out of time reports.
    var timeout: Duration
    /// What happens to this call while an identical one is in flight: `coalesce` for a cached
    /// call that allows duplicates, so that concurrent misses share one request.
    var duplicates: FrequencyPolicy
    /// How failed attempts are sent again; `.none` when the request cannot be sent twice.
    var retry: RetryPolicy
    /// The token buckets each attempt takes a token from.
    var rateLimits: [RateLimitBucket]
    /// The session (one transport per host) the call goes through, and how it is made.
    var session: SessionKey
    var sessionSettings: SessionSettings
    var transport: TransportFactory
    /// How the call uses its API's cache; nil when it has none, or the call cannot be cached.
    var cache: Caching?

    /// Whether a stage compares the call with others: the duplicate gate (unless duplicates are
    /// allowed) or the cache. Such a call's requests get an identity and their credentials read.
    var isCompared: Bool { duplicates != .allow || cache != nil }

    /// Whether each attempt carries the manager's cookies for its URL: an HTTP call through a
    /// transport that keeps cookies, while the manager's configuration keeps some.
    var carriesCookies: Bool {
        transport.keepsCookies && sessionSettings.cookies.policy != .none && definition.kind != .grpc
    }

    /// How a call uses its API's cache: the settings its manifest gives, and its own policy.
    struct Caching: Sendable {
        var settings: CacheSettings
        var policy: CachePolicy
    }

    /// This call again, from `now`, within a deadline of its own (its timeout from then): a stale
    /// reply's revalidation in the background, which outlives the call that served the reply.
    func restarted(at now: ContinuousClock.Instant) -> CallPlan {
        var plan = self
        plan.deadline = now + timeout
        plan.request.deadline = plan.deadline
        return plan
    }
}

/// Who makes a call: whom a test's typed stub answers, and who reads the reply.
enum Caller: Sendable {
    /// An API instance: its class's typed stub is handed it, and its protocol's reply is unwrapped
    /// for it.
    case api(any Sendable)
    /// A JSON-RPC batch of these planned calls: each member's typed stub answers it, and the batch
    /// reads the array of replies itself.
    case batch([CallPlan])
}

/// A rate limit and the bucket a call takes its tokens from (the API's own, or its host's).
struct RateLimitBucket: Sendable {
    let limit: RateLimit
    let key: String
}
