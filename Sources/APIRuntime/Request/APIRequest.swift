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
    /// The method, scheme, authority, path with query, and header fields.
    public var head: HTTPRequest
    /// The body, when it is held whole; nil for none or for a streamed one.
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
    /// The gRPC method of a gRPC call, which its transport calls in the shape it declares.
    public var grpcMethod: GRPCMethod?
    /// Whether a 2xx reply's body is handed on unread, in `APIResponse.streamedBody` (a download,
    /// an event stream), rather than read whole.
    public var streamsResponseBody = false
    /// Whether its `Cookie` field is the manager's cookie jar's, which a redirect replaces with the
    /// jar's cookies for where it leads.
    var carriesJarCookies = false
    /// The account the call is made for, when the authentication interceptor's token provider
    /// names it (`TokenProvider.account()`): what the response cache keeps the call's replies
    /// under, whatever token carries it.
    var account: String?
    /// Why the request lacks the credential it should carry (a token that could not be had): the
    /// call may still be answered from the cache for its named `account`, and fails with this
    /// when it would have to be sent.
    var missingCredential: APIError?
    /// Whether the credential of its named `account` is still being fetched: the cache looks for
    /// the account's reply first, and the request is made again, waiting for the credential,
    /// only if it must be sent.
    var credentialIsPending = false

    /// A request for `url`, due `timeout` from now on the system clock: for transports and
    /// interceptors tested on their own. The manager makes its requests from the parts it keeps.
    public init(
        api: String, method: HTTPRequest.Method, url: URL, headerFields: HTTPFields = [:], body: Data? = nil,
        streamedBody: HTTPBody? = nil, timeout: Duration, messageProducer: MessageProducer? = nil
    ) {
        self.init(
            api: api, head: HTTPRequest(method: method, url: url, headerFields: headerFields), body: body,
            streamedBody: streamedBody, timeout: timeout, deadline: SystemClock().after(timeout),
            messageProducer: messageProducer, grpcMethod: nil
        )
    }

    init(
        api: String, head: HTTPRequest, body: Data?, streamedBody: HTTPBody?, timeout: Duration,
        deadline: ContinuousClock.Instant, messageProducer: MessageProducer?, grpcMethod: GRPCMethod?
    ) {
        self.api = api
        self.head = head
        self.body = body
        self.streamedBody = streamedBody
        self.clampedTimeout = timeout.clampedForWaiting
        self.deadline = deadline
        self.messageProducer = messageProducer
        self.grpcMethod = grpcMethod
    }

    /// `head.method`.
    public var method: HTTPRequest.Method {
        get { head.method }
        set { head.method = newValue }
    }

    /// `head.headerFields`: for gRPC, the call's metadata.
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
    public var streamsResponse: Bool { grpcMethod?.shape.serverStreams ?? false }

    /// Whether the request can go out again as it is (a retry, a redirect, a re-send after a new
    /// token): false when its body or its message stream is read once, as it goes.
    public var canBeSentAgain: Bool {
        messageProducer == nil && streamedBody?.iterationBehavior != .single
    }
}

/// The server's answer, before any protocol unwraps it.
public struct APIResponse: Sendable {
    /// How the server answered: an HTTP status, or the status a gRPC server ended the call with.
    public var status: ReplyStatus
    /// The reply's headers; a gRPC reply's initial metadata (a `-bin` key's value in base64, as
    /// gRPC writes it on the wire).
    public var headerFields: HTTPFields
    /// The reply's body, read whole (empty for a streamed one).
    public var body: Data
    /// A 2xx body still to be read, when the request asked for it (`streamsResponseBody`); `body`
    /// is then empty.
    public var streamedBody: HTTPBody?
    /// Trailing fields: a gRPC reply's trailing metadata.
    public var trailerFields: HTTPFields
    /// The rest of a reply that goes on after its head (a gRPC stream's messages), read by the
    /// API's response decoder after the interceptors have seen the head.
    package var stream: (any ReplyStream)?
    /// How much of `streamedBody` its reader may take (from the manager's configuration).
    package var limits = ReplyLimits()
    /// Whether a redirect the transport followed carried credentials the call's own request did
    /// not (the cookie jar's for another host): no request as sent says whose reply this is, so
    /// the response cache does not keep it.
    package var redirectChangedCredentials = false

    /// An HTTP reply.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data()) {
        self.init(status: .http(status), headerFields: headerFields, body: body)
    }

    /// A reply with `status`, as an HTTP server or a gRPC server ended it.
    public init(status: ReplyStatus, headerFields: HTTPFields = [:], body: Data = Data(), trailerFields: HTTPFields = [:]) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.trailerFields = trailerFields
    }

    /// The HTTP status; nil for a gRPC reply.
    public var httpStatus: HTTPResponse.Status? {
        if case .http(let status) = status { return status }
        return nil
    }

    /// The status a gRPC server ended the call with; nil for other protocols, and for a reply
    /// stream still going.
    public var grpcStatus: GRPCStatusCode? {
        if case .grpc(let code, _) = status { return code }
        return nil
    }

    /// The message that came with `grpcStatus`.
    public var grpcMessage: String? {
        if case .grpc(_, let message) = status { return message }
        return nil
    }

    /// A 2xx status, an OK gRPC status, or a gRPC reply stream that has begun.
    public var isSuccess: Bool { status.isSuccess }

    /// The status for logs and metrics: `200`, `grpc UNAVAILABLE`.
    public var statusSummary: String { status.description }
}

/// The bounds a streamed reply's reader keeps to: `Configuration.maxDownloadBytes` and
/// `maxStreamLineBytes`.
package struct ReplyLimits: Sendable {
    /// The most a download may write.
    package var maxDownloadBytes: Int64 = .max
    /// The longest line (and event) an event stream or JSON Lines may send.
    package var maxLineBytes: Int = .max

    package init(maxDownloadBytes: Int64 = .max, maxLineBytes: Int = .max) {
        self.maxDownloadBytes = maxDownloadBytes
        self.maxLineBytes = maxLineBytes
    }
}

/// How a server answered a call.
public enum ReplyStatus: Sendable, Hashable, CustomStringConvertible {
    /// An HTTP reply's status.
    case http(HTTPResponse.Status)
    /// The status a gRPC server ended the call with, and its message.
    case grpc(GRPCStatusCode, message: String)
    /// A gRPC reply stream that has begun: its status comes at its end, and ends the stream.
    case grpcStream

    /// A 2xx status, an OK gRPC status, or a gRPC reply stream that has begun.
    public var isSuccess: Bool {
        switch self {
        case .http(let status): status.kind == .successful
        case .grpc(let code, _): code == .ok
        case .grpcStream: true
        }
    }

    /// `200`, `grpc UNAVAILABLE`, `grpc stream`.
    public var description: String {
        switch self {
        case .http(let status): "\(status.code)"
        case .grpc(let code, _): "grpc \(code)"
        case .grpcStream: "grpc stream"
        }
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
