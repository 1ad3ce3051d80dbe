import Foundation
import HTTPTypes

/// A call as it goes to the wire, the same shape for every protocol: interceptors and transports see this.
public struct APIRequest: Sendable {
    /// The API's name, for errors, logs and metrics.
    public var api: String
    public var method: HTTPRequest.Method
    public var url: URL
    public var headerFields: HTTPFields
    public var body: Data?
    public var timeout: Duration
    /// gRPC client and bidirectional streaming: writes the request messages as the call goes.
    /// nil sends `body` as the one message (and, for other protocols, as the body).
    public var messageProducer: MessageProducer?
    /// gRPC server and bidirectional streaming: the reply is a stream of messages
    /// (`APIResponse.messages`), not one body.
    public var streamsResponse: Bool

    public init(
        api: String, method: HTTPRequest.Method, url: URL, headerFields: HTTPFields = [:], body: Data? = nil,
        timeout: Duration, messageProducer: MessageProducer? = nil, streamsResponse: Bool = false
    ) {
        self.api = api
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
        self.timeout = timeout
        self.messageProducer = messageProducer
        self.streamsResponse = streamsResponse
    }
}

/// The server's answer, before any protocol unwraps it.
public struct APIResponse: Sendable {
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    public var body: Data
    /// Trailing fields: gRPC's trailing metadata, with `grpc-status` and `grpc-message`.
    public var trailerFields: HTTPFields
    /// The messages of a streaming gRPC reply, read after the interceptors have seen its head.
    public var messages: ResponseMessages?

    public init(
        status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(),
        trailerFields: HTTPFields = [:], messages: ResponseMessages? = nil
    ) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.trailerFields = trailerFields
        self.messages = messages
    }
}
