import APIWireFormat

/// A step the manager runs around every call of every kind (REST, JSON-RPC, custom RPC, gRPC), in
/// two parts: `adapt` makes the request what goes on the wire (a credential, a tenant, a
/// signature), and `intercept` runs around the attempt that sends it (observe it, answer in its
/// place, change or replace the reply).
///
/// ```swift
/// struct Stamp: APIInterceptor {
///     func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
///         var request = request
///         request.headerFields[.init("X-Client")!] = "ios/1.0"
///         return request
///     }
/// }
/// ```
///
/// Every interceptor adapts a request, first to last, before anything reads it: the response
/// cache keys and matches the request as adapted, the duplicate gate compares it, the transport
/// sends it, and `intercept` sees it as it is. So a header that tells one caller from another
/// (a token, a tenant) is added in `adapt`: added anywhere later, it could not keep their replies
/// apart. Interceptors see a call on the wire: after an RPC delegate has wrapped it, before its
/// reply is unwrapped. Each attempt of a retried call is adapted and intercepted again.
///
/// An interceptor never sends a request twice itself: after each attempt the manager asks every
/// interceptor, first to last, whether the call should go out again (`retryDecision`), and then
/// its retry policy. A call sent again is a new attempt, which every interceptor sees and counts.
public protocol APIInterceptor: Sendable {
    /// The name an API's manifest uses to opt out of this interceptor (`skipInterceptors:`).
    var name: String { get }

    /// Makes `request` what one attempt sends: add or change headers, the URL or the body, and
    /// return it. Asked before the response cache and the duplicate gate read the call, and again
    /// for each later attempt (where a refreshed token goes on). A cached call of an account its
    /// token provider names may be adapted twice for its first attempt: once for the cache to
    /// look, without a token that was not at hand, and again, with it, if it must be sent; only
    /// what the last adapting made goes out. Throwing ends the call with the error. The default
    /// returns `request` as it is.
    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest

    /// Runs around one attempt of a call, whose request every interceptor has adapted: `next` runs
    /// the interceptors after this one and then the transport. Return its response, or another, or
    /// throw; an interceptor that does not call `next` answers the call itself. The default
    /// returns what `next` does.
    func intercept(
        _ request: APIRequest,
        context: APICallContext,
        next: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse

    /// Asked after each attempt: whether the call should go out again at once (after this
    /// interceptor has, say, fetched a new token), end with an error, or be left to the next
    /// interceptor and then the retry policy. `request` is the attempt's request as it was sent.
    /// The default leaves it to the others.
    func retryDecision(
        after outcome: Result<APIResponse, APIError>,
        sent request: APIRequest,
        context: APICallContext
    ) async -> RetryDecision

    /// Told what the response cache did for a call of an API with a `cache:`: a hit (when no
    /// request is made, and so `intercept` is not called), a miss, a revalidation, a stale
    /// reply served, a reply stored. The default does nothing.
    func observe(_ event: CacheEvent, context: APICallContext)
}

extension APIInterceptor {
    /// The type's name (`LoggingInterceptor`).
    public var name: String { String(describing: Self.self) }

    /// The request as it is.
    public func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        request
    }

    /// What `next` returns.
    public func intercept(
        _ request: APIRequest,
        context: APICallContext,
        next: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        try await next()
    }

    /// Leaves the decision to the other interceptors and the retry policy.
    public func retryDecision(
        after outcome: Result<APIResponse, APIError>,
        sent request: APIRequest,
        context: APICallContext
    ) async -> RetryDecision {
        .doNotRetry
    }

    /// Nothing.
    public func observe(_ event: CacheEvent, context: APICallContext) {}
}

/// What an interceptor says of a call after an attempt (Alamofire's `RetryResult`, in our terms).
public enum RetryDecision: Sendable {
    /// Nothing from this interceptor: the next one, then the call's retry policy, decide.
    case doNotRetry
    /// Send the call again now, as its next attempt. A request that cannot be sent again (its
    /// body or message stream is read once, `APIRequest.canBeSentAgain`) is not: the interceptor
    /// says `fail` for it instead.
    case retry
    /// End the call with this error.
    case fail(APIError)
}

/// What an interceptor knows about the call it sees.
public struct APICallContext: Sendable {
    /// The API being called.
    public var definition: APIDefinition
    /// The RPC call (method, id) for JSON-RPC and custom protocols; nil for REST.
    public var rpc: RPCCall?
    /// REST, JSON-RPC, a custom RPC protocol, or gRPC.
    public var kind: CallKind
    /// 1 for the first attempt, 2 for the second, and so on, whoever asked for it.
    public var attempt: Int
    /// When an interceptor is asked for its `retryDecision`: how many times it has already asked
    /// for this call to be sent again. 0 everywhere else.
    public var retriesRequested = 0
    /// The base URL the API's manifest declares (its own, else its workspace's), as this call's
    /// manager maps it (`baseURLOverrides`): where the servers the workspace names are, for
    /// interceptors that trust only them with credentials. nil when none is declared.
    public var declaredBaseURL: String? {
        didSet { declaredOrigin = Origin(declaredBaseURL) }
    }
    /// The default base URL of the API's workspace, as this call's manager maps it: where the
    /// app's own server is, the one the authentication interceptor trusts by default. nil when
    /// the workspace declares none.
    public var workspaceBaseURL: String? {
        didSet { workspaceOrigin = Origin(workspaceBaseURL) }
    }
    /// The origins of `declaredBaseURL` and `workspaceBaseURL`, which interceptors compare a
    /// request's with, worked out once rather than on every attempt.
    private(set) var declaredOrigin: Origin?
    private(set) var workspaceOrigin: Origin?
    /// Whether the response cache looks for a stored reply before the request is sent: a
    /// credential of a named account that is not at hand is then fetched only if it must be sent.
    var cacheLooksFirst = false

    /// A context for an attempt of the call `definition` describes, for interceptors tested on their own.
    public init(
        definition: APIDefinition, rpc: RPCCall?, kind: CallKind, attempt: Int,
        declaredBaseURL: String? = nil, workspaceBaseURL: String? = nil
    ) {
        self.init(
            definition: definition, rpc: rpc, kind: kind, attempt: attempt, declaredBaseURL: declaredBaseURL, workspaceBaseURL: workspaceBaseURL,
            origins: (Origin(declaredBaseURL), Origin(workspaceBaseURL))
        )
    }

    /// The context of a planned call, whose base URLs' origins were worked out before.
    init(
        definition: APIDefinition, rpc: RPCCall?, kind: CallKind, attempt: Int,
        declaredBaseURL: String?, workspaceBaseURL: String?, origins: (declared: Origin?, workspace: Origin?)
    ) {
        self.definition = definition
        self.rpc = rpc
        self.kind = kind
        self.attempt = attempt
        self.declaredBaseURL = declaredBaseURL
        self.workspaceBaseURL = workspaceBaseURL
        self.declaredOrigin = origins.declared
        self.workspaceOrigin = origins.workspace
    }
}
