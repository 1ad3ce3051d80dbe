import Foundation
import HTTPTypes
import HTTPTypesFoundation

/// A call as it goes to the wire, the same shape for every protocol: interceptors and transports
/// see this. Its head is an HTTP request (method, scheme, authority, path with query, fields),
/// which is what every protocol here sends; gRPC's fields are its metadata and its path names
/// its method (`/helloworld.Greeter/SayHello`).
public struct APIRequest: Sendable {
    /// The API's name, for errors, logs and metrics.
    public var api: String
    public var head: HTTPRequest
    public var body: Data?
    /// A body that streams (a file, a multipart form with file parts, bytes given as a sequence),
    /// sent instead of `body`. Interceptors see its length, not its bytes.
    public var streamedBody: HTTPBody?
    /// The call's whole time limit, for errors: at most a century, and never below zero.
    public var timeout: Duration {
        get { clampedTimeout }
        set { clampedTimeout = newValue.clampedForWaiting }
    }
    private var clampedTimeout: Duration
    /// When the call's time runs out, across every attempt and wait, on the manager's clock: what
    /// a transport that passes a deadline on (gRPC's) gives its server. The manager sets it once,
    /// when it plans the call.
    public var deadline: ContinuousClock.Instant
    /// gRPC client and bidirectional streaming: writes the request messages as the call goes.
    /// nil sends `body` as the one message (and, for other protocols, as the body).
    public var messageProducer: MessageProducer?
    /// The remote method of an RPC call, for transports that address methods themselves: gRPC's
    /// calls its service and method, in the shape (unary or streaming) it declares.
    public var rpc: RPCMethod?
    /// Whether a 2xx reply's body is handed on unread, in `APIResponse.streamedBody` (a download,
    /// an event stream), rather than read whole.
    public var streamsResponseBody = false

    /// A request for `url`, due `timeout` from now on the system clock: for transports and
    /// interceptors tested on their own. The manager makes its requests from the parts it keeps.
    public init(
        api: String, method: HTTPRequest.Method, url: URL, headerFields: HTTPFields = [:], body: Data? = nil,
        streamedBody: HTTPBody? = nil, timeout: Duration, messageProducer: MessageProducer? = nil, rpc: RPCMethod? = nil
    ) {
        self.init(
            api: api, head: HTTPRequest(method: method, url: url, headerFields: headerFields), body: body,
            streamedBody: streamedBody, timeout: timeout, deadline: SystemClock().after(timeout),
            messageProducer: messageProducer, rpc: rpc
        )
    }

    init(
        api: String, head: HTTPRequest, body: Data?, streamedBody: HTTPBody?, timeout: Duration,
        deadline: ContinuousClock.Instant, messageProducer: MessageProducer?, rpc: RPCMethod?
    ) {
        self.api = api
        self.head = head
        self.body = body
        self.streamedBody = streamedBody
        self.clampedTimeout = timeout.clampedForWaiting
        self.deadline = deadline
        self.messageProducer = messageProducer
        self.rpc = rpc
    }

    public var method: HTTPRequest.Method {
        get { head.method }
        set { head.method = newValue }
    }

    public var headerFields: HTTPFields {
        get { head.headerFields }
        set { head.headerFields = newValue }
    }

    /// The whole URL (`https://api.example.com/v1/users/7?fields=name`), for logs and for
    /// transports that take one; setting it replaces scheme, authority and path.
    public var url: URL? {
        get { head.url }
        set { if let newValue { head.url = newValue } }
    }

    /// gRPC server and bidirectional streaming: the reply is a stream of messages (read through
    /// the API's response decoder), not one body.
    public var streamsResponse: Bool { rpc?.serverStreams ?? false }

    /// Whether the request can go out again as it is (a retry, a redirect, a re-send after a new
    /// token): false when its body or its message stream is read once, as it goes.
    public var canBeSentAgain: Bool {
        messageProducer == nil && streamedBody?.iterationBehavior != .single
    }
}

/// The server's answer, before any protocol unwraps it.
public struct APIResponse: Sendable {
    /// The HTTP status; for gRPC, 200, which HTTP/2 carries for every call a gRPC server takes
    /// (the call's outcome is `grpcStatus`).
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    public var body: Data
    /// A 2xx body still to be read, when the request asked for it (`streamsResponseBody`); `body`
    /// is then empty.
    public var streamedBody: HTTPBody?
    /// Trailing fields: gRPC's trailing metadata.
    public var trailerFields: HTTPFields
    /// The status a gRPC server ended the call with; nil for other protocols, and for a stream
    /// that is still going (its status ends the stream).
    public var grpcStatus: GRPCStatusCode?
    /// The message that came with `grpcStatus`, if any.
    public var grpcMessage: String?
    /// The rest of a reply that goes on after its head (a gRPC stream's messages), read by the
    /// API's response decoder after the interceptors have seen the head.
    package var stream: (any ReplyStream)?

    public init(
        status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(),
        trailerFields: HTTPFields = [:], grpcStatus: GRPCStatusCode? = nil, grpcMessage: String? = nil
    ) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.trailerFields = trailerFields
        self.grpcStatus = grpcStatus
        self.grpcMessage = grpcMessage
    }
}

/// A decoded reply that goes on after `start()` returns (an event stream): the manager keeps its
/// stream reachable by `cancel()` and `cancel(tag:)` until it ends.
package protocol StreamingReply {
    var replyStream: any ReplyStream { get }
}

/// A reply that goes on after its head (a gRPC stream's messages): `cancel(tag:)` and
/// `cancelAll()` reach it until it ends.
package protocol ReplyStream: AnyObject, Sendable {
    func cancel()
    /// Runs `action` once, when the stream has ended (at once if it already has).
    func onEnd(_ action: @escaping @Sendable () -> Void)
}
