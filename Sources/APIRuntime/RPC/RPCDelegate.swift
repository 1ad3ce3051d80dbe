import Foundation

/// Decides how a call is wrapped on the wire. An API whose `rpcDelegate` is nil is plain REST.
///
/// The base API encodes its parameters first: URL, headers, and the RPC parameters as the body
/// (a JSON object when they go by name, a JSON array by position, nil when there are none). The
/// delegate then wraps that body into its protocol's envelope, and turns the server's reply back
/// into the bytes of the result, or into an `APIError` naming the API.
public protocol RPCDelegate: Sendable {
    /// The kind of call this protocol makes: it picks the transport, and interceptors, logs and
    /// metrics name it.
    var kind: CallKind { get }

    /// The transport this protocol's calls travel by when the manager's configuration names
    /// none for their kind; nil (the default) is the manager's `httpTransport`.
    var defaultTransport: TransportFactory? { get }

    /// Rewrites the encoded request into this protocol's envelope (URL, headers, body).
    func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError)

    /// Returns the bytes the API's response decoder reads. Not called for notifications.
    func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data
}

extension RPCDelegate {
    /// A team's own protocol is a custom RPC unless its delegate says otherwise.
    public var kind: CallKind { .customRPC }

    public var defaultTransport: TransportFactory? { nil }
}

/// What kind of call an API makes: what picks its transport, never its URL's scheme.
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
    public var definition: APIDefinition
    /// The request id the manager gave this call, unique within the manager; nil for notifications.
    public var id: Int?

    public init(definition: APIDefinition, id: Int?) {
        self.definition = definition
        self.id = id
    }

    /// The remote method's name (`subtract`); the API's name when the definition has no RPC method.
    public var method: String { definition.rpc?.name ?? definition.name }
    public var isNotification: Bool { definition.rpc?.isNotification ?? false }

    /// An error about this call's reply that names the API.
    public func invalidResponse(_ message: String) -> APIError {
        APIError(api: definition.name, reason: .invalidResponse(message: message))
    }
}

/// The RPC side of an API definition: the remote method and what goes into its envelope.
public struct RPCMethod: Sendable {
    /// The method's name: `subtract`, or a gRPC method's own name (`SayHello`).
    public var name: String
    /// gRPC: the full name of the method's service (`helloworld.Greeter`); nil for other protocols.
    public var service: String?
    /// A notification is sent without an id and no reply is awaited.
    public var isNotification: Bool
    /// Members added to the envelope as they are: a name and its value as JSON text.
    public var envelopeFields: [(name: String, json: String)]
    /// gRPC: the client sends a stream of messages.
    public var clientStreams: Bool
    /// gRPC: the server answers with a stream of messages.
    public var serverStreams: Bool
    /// Safe to send twice (a proto's `idempotency_level`): the retry policy may resend it.
    public var isIdempotent: Bool

    public init(
        name: String, isNotification: Bool = false, envelopeFields: [(name: String, json: String)] = [],
        clientStreams: Bool = false, serverStreams: Bool = false, isIdempotent: Bool = false
    ) {
        self.name = name
        self.service = nil
        self.isNotification = isNotification
        self.envelopeFields = envelopeFields
        self.clientStreams = clientStreams
        self.serverStreams = serverStreams
        self.isIdempotent = isIdempotent
    }

    /// A gRPC method, as its proto declares it: `RPCMethod(service: "helloworld.Greeter", name: "SayHello")`.
    public init(service: String, name: String, clientStreams: Bool = false, serverStreams: Bool = false, isIdempotent: Bool = false) {
        self.init(name: name, clientStreams: clientStreams, serverStreams: serverStreams, isIdempotent: isIdempotent)
        self.service = service
    }

    /// The path a gRPC method is called on, `/helloworld.Greeter/SayHello`; nil for other protocols.
    public var grpcPath: String? {
        service.map { "/\($0)/\(name)" }
    }
}

/// Plain REST, what a nil `rpcDelegate` means: the body as it is, a 2xx status or an error.
enum RESTProtocol {
    static func unwrap(_ response: APIResponse, for definition: APIDefinition) throws(APIError) -> Data {
        guard response.status.kind == .successful else {
            let status = response.status.code
            let serverError = ErrorResponse.decode(response.body, status: status, from: definition.errorResponses, definition.defaults.errorResponses)
            throw APIError(api: definition.name, reason: .httpStatus(code: status, body: response.body), serverError: serverError)
        }
        return response.body
    }
}
