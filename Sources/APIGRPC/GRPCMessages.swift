import APIRuntime
import Foundation
import SwiftProtobuf

/// Writes the request messages of a streaming gRPC API.
public struct GRPCRequestWriter<Message: SwiftProtobuf.Message>: Sendable {
    let sink: MessageSink

    /// Sends one message; waits while the connection cannot take more.
    public func write(_ message: Message) async throws {
        try await sink.write(try message.serializedData())
    }

    /// Sends each message in order.
    public func write(contentsOf messages: some Sequence<Message>) async throws {
        for message in messages { try await write(message) }
    }
}

/// The parameters of a client- or bidirectional-streaming gRPC API: what it sends, written as the
/// call goes (`{ writer in try await writer.write(point) }`) or given all at once (`[point, …]`).
public struct GRPCRequestStream<Message: SwiftProtobuf.Message>: Sendable {
    /// Writes the call's messages; returning ends the request stream, throwing fails the call.
    public let produce: @Sendable (GRPCRequestWriter<Message>) async throws -> Void

    /// Messages written by `produce` as the call goes, at the pace the connection takes them.
    public init(_ produce: @escaping @Sendable (GRPCRequestWriter<Message>) async throws -> Void) {
        self.produce = produce
    }

    /// Sends `messages` in order, then ends the request stream.
    public init(_ messages: [Message]) {
        self.produce = { writer in try await writer.write(contentsOf: messages) }
    }

    var producer: MessageProducer {
        { [produce] sink in try await produce(GRPCRequestWriter(sink: sink)) }
    }
}

extension RequestBuilder {
    /// The one request message of a unary or server-streaming gRPC call.
    public consuming func message(_ message: some SwiftProtobuf.Message) -> RequestBuilder {
        encodeMessage = { try message.serializedData() }
        return self
    }

    /// The request messages of a client- or bidirectional-streaming gRPC call.
    public consuming func messages<Message>(_ stream: GRPCRequestStream<Message>) -> RequestBuilder {
        messageProducer = stream.producer
        return self
    }
}

extension ResponseDecoder where Response: SwiftProtobuf.Message {
    /// A protobuf message in binary form: the reply of a unary or client-streaming gRPC call.
    public static var protobuf: Self {
        Self { body, _ in try Response(serializedBytes: body) }
    }
}
