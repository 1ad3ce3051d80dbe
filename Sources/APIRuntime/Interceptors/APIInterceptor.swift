/// A step the manager runs around every call of every kind (REST, JSON-RPC, custom RPC, gRPC): it can
/// change the request (headers, body), and observe or replace the response or the error.
///
/// ```swift
/// struct Stamp: APIInterceptor {
///     func intercept(_ request: APIRequest, context: APICallContext,
///                    next: (APIRequest) async throws(APIError) -> APIResponse) async throws(APIError) -> APIResponse {
///         var request = request
///         request.headerFields[.init("X-Client")!] = "ios/1.0"
///         return try await next(request)
///     }
/// }
/// ```
///
/// Interceptors see a call on the wire: after an RPC delegate has wrapped it, before its reply is
/// unwrapped. Each attempt of a retried call goes through them again.
public protocol APIInterceptor: Sendable {
    /// The name an API's manifest uses to opt out of this interceptor (`skipInterceptors:`).
    var name: String { get }

    func intercept(
        _ request: APIRequest,
        context: APICallContext,
        next: (APIRequest) async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse
}

extension APIInterceptor {
    public var name: String { String(describing: Self.self) }
}

/// What an interceptor knows about the call it sees.
public struct APICallContext: Sendable {
    public var definition: APIDefinition
    /// The RPC call (method, id) for JSON-RPC and custom protocols; nil for REST.
    public var rpc: RPCCall?
    /// REST, JSON-RPC, a custom RPC protocol, or gRPC.
    public var kind: CallKind
    /// 1 for the first attempt, 2 for the first retry, and so on.
    public var attempt: Int
    /// The base URL the API's manifest declares (its own, else its workspace's), as this call's
    /// manager maps it (`baseURLOverrides`): where the servers the workspace names are, for
    /// interceptors that trust only them with credentials. nil when none is declared.
    public var declaredBaseURL: String?

    public init(definition: APIDefinition, rpc: RPCCall?, kind: CallKind, attempt: Int, declaredBaseURL: String? = nil) {
        self.definition = definition
        self.rpc = rpc
        self.kind = kind
        self.attempt = attempt
        self.declaredBaseURL = declaredBaseURL
    }
}
