import HTTPTypes

/// A call's decoded value with the fields that came with it (`BaseAPI.startWithMetadata()`).
public struct APIReply<Value: Sendable>: Sendable {
    /// The decoded value, as `start()` returns it.
    public var value: Value
    /// The reply's headers; for gRPC, the server's initial metadata.
    public var headerFields: HTTPFields
    /// For gRPC, the trailing metadata; empty for other protocols. A streaming
    /// reply's trailers arrive at its end: `GRPCResponseStream.trailerFields`.
    public var trailerFields: HTTPFields
    /// Where the value came from: the network, or the cache and why.
    public var source: ReplySource = .network
    /// A reply stream still open when the call returns; cancelling by tag reaches it until it ends.
    var stream: (any ReplyStream)?

    init(value: Value, headerFields: HTTPFields, trailerFields: HTTPFields, stream: (any ReplyStream)? = nil) {
        self.value = value
        self.headerFields = headerFields
        self.trailerFields = trailerFields
        self.stream = stream
    }
}
