import APIWireFormat
import HTTPTypes

/// How an API's calls travel: the kind of call, and what addresses it on its server. The kind
/// picks the transport and the protocol that wraps each call (`BaseAPI.rpcDelegate`), so an API
/// says what it is once.
public enum Wire: Sendable {
    /// Plain HTTP: a method, and a path template (`/users/{id}`) that follows the base URL.
    case http(HTTPRequest.Method, path: String)
    /// JSON-RPC 2.0: a remote method, posted to the base URL (and `path`, when it has one).
    case jsonRPC(JSONRPCMethod)
    /// A team's own protocol over HTTP: its delegate wraps each call and unwraps the reply.
    case customRPC(CustomRPCMethod)
    /// gRPC: a method of a service, in the shape its proto declares.
    case grpc(GRPCMethod)

    /// REST, JSON-RPC, a custom RPC protocol, or gRPC.
    public var kind: CallKind {
        switch self {
        case .http: .rest
        case .jsonRPC: .jsonRPC
        case .customRPC: .customRPC
        case .grpc: .grpc
        }
    }

    /// The protocol that wraps the calls; nil for plain HTTP.
    var delegate: (any RPCDelegate)? {
        switch self {
        case .http: nil
        case .jsonRPC: JSONRPC()
        case .customRPC(let method): method.delegate
        case .grpc: GRPCProtocol()
        }
    }

    /// The HTTP method the calls are sent with: RPC protocols post.
    var method: HTTPRequest.Method {
        if case .http(let method, _) = self { return method }
        return .post
    }

    /// The path template after the base URL: gRPC's names its method (`/helloworld.Greeter/SayHello`).
    var path: String {
        switch self {
        case .http(_, let path): path
        case .jsonRPC(let method): method.path
        case .customRPC(let method): method.path
        case .grpc(let method): method.path
        }
    }

    /// The remote method's name (`subtract`, `SayHello`); nil for plain HTTP.
    var remoteMethod: String? {
        switch self {
        case .http: nil
        case .jsonRPC(let method): method.name
        case .customRPC(let method): method.name
        case .grpc(let method): method.name
        }
    }

    /// Whether a call awaits no reply (a JSON-RPC notification).
    var isNotification: Bool {
        switch self {
        case .jsonRPC(let method): method.isNotification
        case .customRPC(let method): method.isNotification
        case .http, .grpc: false
        }
    }

    /// The gRPC method, for gRPC APIs.
    var grpcMethod: GRPCMethod? {
        if case .grpc(let method) = self { return method }
        return nil
    }
}

/// A JSON-RPC 2.0 method as an API calls it.
public struct JSONRPCMethod: Sendable {
    /// The method's name (`subtract`, `math.divide`).
    public var name: String
    /// Where the calls are posted after the base URL; empty for the base URL itself.
    public var path: String
    /// A notification is sent without an id, and no reply is awaited.
    public var isNotification: Bool
    /// Members added to each request's envelope as they are (`"apiVersion": "2"`).
    public var envelope: [(name: String, value: JSONValue)]

    /// The JSON-RPC method `name`, posted to `path` after the base URL.
    public init(_ name: String, path: String = "", isNotification: Bool = false, envelope: [(name: String, value: JSONValue)] = []) {
        self.name = name
        self.path = path
        self.isNotification = isNotification
        self.envelope = envelope
    }
}

/// A remote method of a team's own RPC protocol, and the delegate that speaks it.
public struct CustomRPCMethod: Sendable {
    /// The remote method's name.
    public var name: String
    /// Where the calls are posted after the base URL; empty for the base URL itself.
    public var path: String
    /// A notification awaits no reply.
    public var isNotification: Bool
    /// Members the manifest adds to the envelope, for the delegate to write.
    public var envelope: [(name: String, value: JSONValue)]
    /// Wraps each call into the protocol's envelope and unwraps the reply.
    public var delegate: any RPCDelegate

    /// The method `name` of the protocol `delegate` speaks, posted to `path` after the base URL.
    public init(
        _ name: String, path: String = "", isNotification: Bool = false, envelope: [(name: String, value: JSONValue)] = [],
        delegate: any RPCDelegate
    ) {
        self.name = name
        self.path = path
        self.isNotification = isNotification
        self.envelope = envelope
        self.delegate = delegate
    }
}

/// A gRPC method as its proto declares it. Generated gRPC APIs make it with `APIGRPC`'s
/// initializer, which brings grpc-swift's transport and the method's descriptor with it.
public struct GRPCMethod: Sendable {
    /// The shape of a call: one message or a stream, each way.
    public enum Shape: Sendable, Hashable {
        /// One message each way.
        case unary
        /// A stream of messages to the server, one message back.
        case clientStreaming
        /// One message to the server, a stream of messages back.
        case serverStreaming
        /// A stream of messages each way, at the same time.
        case bidirectionalStreaming

        /// The client sends a stream of messages.
        public var clientStreams: Bool { self == .clientStreaming || self == .bidirectionalStreaming }
        /// The server answers with a stream of messages.
        public var serverStreams: Bool { self == .serverStreaming || self == .bidirectionalStreaming }
    }

    /// The service's full name (`helloworld.Greeter`).
    public let service: String
    /// The method's name (`SayHello`).
    public let name: String
    /// One message or a stream, each way, as the proto declares.
    public let shape: Shape
    /// Safe to send twice (the proto's `idempotency_level`): the retry policy may send it again.
    public let isIdempotent: Bool
    /// `/helloworld.Greeter/SayHello`, the path the method is called on.
    public let path: String
    /// The transport gRPC calls take when the manager's configuration names none.
    public let defaultTransport: TransportFactory?
    /// What that transport made of the method once, when the definition was made (grpc-swift's
    /// `MethodDescriptor`), so that no call makes it again.
    package let descriptor: (any Sendable)?

    package init(service: String, name: String, shape: Shape, isIdempotent: Bool, defaultTransport: TransportFactory?, descriptor: (any Sendable)?) {
        self.service = service
        self.name = name
        self.shape = shape
        self.isIdempotent = isIdempotent
        self.path = "/\(service)/\(name)"
        self.defaultTransport = defaultTransport
        self.descriptor = descriptor
    }
}
