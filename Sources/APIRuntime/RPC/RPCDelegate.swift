import Foundation

/// Decides how a call is wrapped on the wire. An API whose `rpcDelegate` is nil is plain REST.
///
/// The base API encodes its parameters first: URL, headers, and the RPC parameters as the body
/// (a JSON object when they go by name, a JSON array by position, nil when there are none). The
/// delegate then wraps that body into its protocol's envelope, and turns the server's reply back
/// into the bytes of the result, or into an `APIError` naming the API.
public protocol RPCDelegate: Sendable {
    /// The transport this protocol's calls travel by when the manager's configuration names
    /// none for their kind; nil (the default) is the manager's `httpTransport`.
    var defaultTransport: TransportFactory? { get }

    /// Whether the manager gives each call a request id (`RPCCall.id`) for the envelope to carry
    /// and the reply to be matched by: true (the default) for JSON-RPC and most envelopes, false
    /// for a protocol whose transport pairs each reply with its call (gRPC). Notifications never
    /// get one. A delegate that wraps another's calls (to log them, say) says what the other says.
    var usesRequestIDs: Bool { get }

    /// Rewrites the encoded request into this protocol's envelope (URL, headers, body).
    func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError)

    /// Returns the bytes the API's response decoder reads. Not called for notifications.
    func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data

    /// The reply this protocol's server sends when `call` returns `result` (the value's encoded
    /// bytes): what a test's typed stub answers with, so that `unwrap` reads it as a server's.
    func reply(with result: Data, for call: RPCCall) -> APIResponse
}

extension RPCDelegate {
    /// nil: the calls travel by the manager's `httpTransport`.
    public var defaultTransport: TransportFactory? { nil }

    /// true: each call that awaits a reply gets a request id.
    public var usesRequestIDs: Bool { true }

    /// An HTTP `200 OK` whose JSON body is `result` as it is, for a protocol whose `unwrap`
    /// returns the body it is given; a protocol with an envelope writes its own.
    public func reply(with result: Data, for call: RPCCall) -> APIResponse {
        APIResponse(status: .ok, headerFields: [.contentType: "application/json"], body: result)
    }
}

/// What kind of call an API makes (its `Wire` says): what picks its transport, never its URL's
/// scheme.
public enum CallKind: Sendable, Hashable, CustomStringConvertible {
    /// Plain HTTP: an API whose `rpcDelegate` is nil.
    case rest
    /// JSON-RPC 2.0 over HTTP.
    case jsonRPC
    /// A team's own envelope over HTTP.
    case customRPC
    /// gRPC over HTTP/2, through its own transport.
    case grpc

    /// The name logs and metrics use: `rest`, `jsonrpc`, `rpc` or `grpc`.
    public var description: String {
        switch self {
        case .rest: "rest"
        case .jsonRPC: "jsonrpc"
        case .customRPC: "rpc"
        case .grpc: "grpc"
        }
    }
}

/// One call of an RPC API, as its delegate sees it.
public struct RPCCall: Sendable {
    /// The API being called.
    public var definition: APIDefinition
    /// The request id the manager gave this call, unique within the manager; nil for notifications.
    public var id: Int?

    /// The call of `definition` with request id `id` (nil for a notification).
    public init(definition: APIDefinition, id: Int?) {
        self.definition = definition
        self.id = id
    }

    /// The remote method's name (`subtract`); the API's name when its wire names no method.
    public var method: String { definition.wire.remoteMethod ?? definition.name }
    /// Whether the call awaits no reply (a JSON-RPC notification).
    public var isNotification: Bool { definition.wire.isNotification }

    /// An error about this call's reply that names the API.
    public func invalidResponse(_ message: String) -> APIError {
        APIError(api: definition.name, reason: .invalidResponse(message: message))
    }
}

/// Plain REST, what a nil `rpcDelegate` means: the body as it is, a 2xx status or an error.
enum RESTProtocol {
    static func unwrap(_ response: APIResponse, for definition: APIDefinition) throws(APIError) -> Data {
        guard let status = response.httpStatus else {
            throw APIError(api: definition.name, reason: .invalidResponse(message: "a gRPC reply to an HTTP call"))
        }
        guard status.kind == .successful else {
            let serverError = ErrorResponse.decode(response.body, status: status.code, from: definition.errorResponses, definition.defaults.errorResponses)
            throw APIError(api: definition.name, reason: .httpStatus(code: status.code, body: response.body), serverError: serverError)
        }
        return response.body
    }
}
