import Foundation
import HTTPTypes

/// One call, resolved before anything is sent: what goes on the wire, by when, under which
/// policies, and through which session and transport. `APIManager.plan` makes it, the one place
/// a call's settings are chosen; the stages that run the call only read it.
///
/// An immutable class: every stage holds the plan, and passing a reference is one retain where
/// a struct of this size is copied member by member at each hand-over.
final class CallPlan: Sendable {
    /// The API instance making the call, for a typed stub; nil for a JSON-RPC batch.
    let instance: (any Sendable)?
    let definition: APIDefinition
    /// How the call's protocol wraps the request and unwraps the reply; nil is plain REST.
    let delegate: (any RPCDelegate)?
    /// The call as its delegate sees it (remote method, request id); nil for REST.
    let rpc: RPCCall?
    /// The request as planned, wrapped by the delegate; each attempt sends it as `Preparation`
    /// makes it (the manager's cookies, the interceptors' changes).
    let request: APIRequest
    /// The request's body before the delegate wrapped it: an RPC call's parameters, which its
    /// identity reads rather than an envelope whose id differs on every call.
    let unwrappedBody: Data?
    /// The identity of the call as planned, credentials aside (`CallIdentity`): what the cache
    /// finds one call's replies by, whatever interceptors add and whoever made them
    /// (`ResponseCache.remove(_:)`). Empty when the call has no cache.
    let callIdentity: String
    /// What interceptors are told of the call on its first attempt.
    let context: APICallContext
    /// When the call's time runs out, on the manager's clock: every stage ends by then.
    let deadline: ContinuousClock.Instant
    /// The time limit the deadline came from, which a call that runs out of time reports.
    let timeout: Duration
    /// What happens to this call while an identical one is in flight: `coalesce` for a cached
    /// call that allows duplicates, so that concurrent misses share one request.
    let duplicates: FrequencyPolicy
    /// How failed attempts are sent again; `.none` when the request cannot be sent twice.
    let retry: RetryPolicy
    /// The token buckets each attempt takes a token from.
    let rateLimits: [RateLimitBucket]
    /// The session (one transport per host) the call goes through, and how it is made.
    let session: SessionKey
    let sessionSettings: SessionSettings
    let transport: TransportFactory
    /// Whether the reply's protocol is unwrapped here; a JSON-RPC batch reads its own reply.
    let unwrapsReply: Bool
    /// How the call uses its API's cache; nil when it has none, or the call cannot be cached.
    let cache: Caching?
    /// Whether each attempt carries the manager's cookies for its URL: an HTTP call through a
    /// transport that keeps cookies, while the manager's configuration keeps some.
    let carriesCookies: Bool

    init(
        instance: (any Sendable)?, definition: APIDefinition, delegate: (any RPCDelegate)?, rpc: RPCCall?,
        request: APIRequest, unwrappedBody: Data?, callIdentity: String, context: APICallContext,
        deadline: ContinuousClock.Instant, timeout: Duration, duplicates: FrequencyPolicy, retry: RetryPolicy,
        rateLimits: [RateLimitBucket], session: SessionKey, sessionSettings: SessionSettings, transport: TransportFactory,
        unwrapsReply: Bool, cache: Caching?
    ) {
        self.instance = instance
        self.definition = definition
        self.delegate = delegate
        self.rpc = rpc
        self.request = request
        self.unwrappedBody = unwrappedBody
        self.callIdentity = callIdentity
        self.context = context
        self.deadline = deadline
        self.timeout = timeout
        self.duplicates = duplicates
        self.retry = retry
        self.rateLimits = rateLimits
        self.session = session
        self.sessionSettings = sessionSettings
        self.transport = transport
        self.unwrapsReply = unwrapsReply
        self.cache = cache
        self.carriesCookies = transport.keepsCookies && sessionSettings.cookies.policy != .none && definition.kind != .grpc
    }

    /// Whether a stage compares the call with others: the duplicate gate (unless duplicates are
    /// allowed) or the cache. Such a call's requests get an identity and their credentials read.
    var isCompared: Bool { duplicates != .allow || cache != nil }

    /// How a call uses its API's cache: the settings its manifest gives, and its own policy.
    struct Caching: Sendable {
        let settings: CacheSettings
        let policy: CachePolicy
    }
}

/// A rate limit and the bucket a call takes its tokens from (the API's own, or its host's).
struct RateLimitBucket: Sendable {
    let limit: RateLimit
    let key: String
}
