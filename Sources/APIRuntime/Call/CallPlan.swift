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
    /// The request as it leaves for its first attempt, wrapped by the delegate.
    let request: APIRequest
    /// What interceptors are told of the call on its first attempt.
    let context: APICallContext
    /// When the call's time runs out, on the manager's clock: every stage ends by then.
    let deadline: ContinuousClock.Instant
    /// The time limit the deadline came from, which a call that runs out of time reports.
    let timeout: Duration
    /// What happens to this call while an identical one is in flight.
    let duplicates: Duplicates
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
    /// Whether the request asks the server to confirm a cached reply (`If-None-Match`), so that a
    /// `304 Not Modified` is handed back as it is rather than failing as a status.
    let isRevalidation: Bool

    init(
        instance: (any Sendable)?, definition: APIDefinition, delegate: (any RPCDelegate)?, rpc: RPCCall?, request: APIRequest, context: APICallContext,
        deadline: ContinuousClock.Instant, timeout: Duration, duplicates: Duplicates, retry: RetryPolicy,
        rateLimits: [RateLimitBucket], session: SessionKey, sessionSettings: SessionSettings, transport: TransportFactory,
        unwrapsReply: Bool, cache: Caching?, isRevalidation: Bool = false
    ) {
        self.instance = instance
        self.definition = definition
        self.delegate = delegate
        self.rpc = rpc
        self.request = request
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
        self.isRevalidation = isRevalidation
    }

    /// This plan with `validators` on its request: a revalidation of a cached reply. Its
    /// identity differs from the plain call's, so that only revalidations share a `304`.
    func revalidating(with validators: HTTPFields) -> CallPlan {
        var request = request
        for field in validators { request.headerFields[field.name] = field.value }
        let duplicates: Duplicates = switch duplicates {
        case .allow: .allow
        case .reject(let identity): .reject(identity: identity + Self.revalidationSuffix)
        case .coalesce(let identity): .coalesce(identity: identity + Self.revalidationSuffix)
        }
        return CallPlan(
            instance: instance, definition: definition, delegate: delegate, rpc: rpc, request: request, context: context, deadline: deadline,
            timeout: timeout, duplicates: duplicates, retry: retry, rateLimits: rateLimits, session: session,
            sessionSettings: sessionSettings, transport: transport, unwrapsReply: unwrapsReply, cache: cache, isRevalidation: true
        )
    }

    private static let revalidationSuffix = "\u{0}revalidation"

    /// How a call uses its API's cache: the settings its manifest gives, its own policy, and the
    /// identity its replies are kept under.
    struct Caching: Sendable {
        let settings: CacheSettings
        let policy: CachePolicy
        let identity: String
    }

    /// The frequency policy with the identity it compares calls by.
    enum Duplicates: Sendable {
        case allow
        case reject(identity: String)
        case coalesce(identity: String)
    }
}

/// A rate limit and the bucket a call takes its tokens from (the API's own, or its host's).
struct RateLimitBucket: Sendable {
    let limit: RateLimit
    let key: String
}
