import APIRuntime
import Foundation
import SwiftProtobuf

/// Typed stubs for gRPC APIs: a stub returns the reply message, or the messages of a reply
/// stream, and throws `StubError.grpcStatus` to end the call with another status.
extension APIManager {
    /// Answers every call of `api`, a unary or client-streaming gRPC API, with `answer`'s message.
    /// A client-streaming stub reads what the call sent with `api.requests.messages()`.
    public func stub<API: BaseAPI<Response>, Response: SwiftProtobuf.Message>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> Response
    ) {
        register(api, delay: delay) { api, call in
            call.reply(result: try await answer(api).serializedData(), contentType: "application/grpc")
        }
    }

    /// Answers every call of `api`, a server- or bidirectional-streaming gRPC API, with
    /// `answer`'s messages in order, then `OK`. The stream waits for its reader as a server's
    /// does; leaving the loop early cancels it.
    public func stub<API: BaseAPI<GRPCResponseStream<Message>>, Message: SwiftProtobuf.Message>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> [Message]
    ) {
        register(api, delay: delay) { api, call in
            let replies = try await answer(api).map { try $0.serializedData() }
            let messages = ResponseMessages(callTimeout: call.request.timeout)
            let feed = Task {
                for reply in replies {
                    await messages.channel.send(reply)
                    if Task.isCancelled {
                        messages.fail(APIError(api: call.request.api, reason: .cancelled), trailers: [:])
                        return
                    }
                }
                messages.finish(trailers: [:])
            }
            messages.onCancel { feed.cancel() }
            var response = APIResponse(status: .grpcStream)
            response.stream = messages
            return response
        }
    }
}

extension GRPCRequestStream {
    /// Every message the stream writes, once it has ended: for a test's stub, to read what a
    /// client-streaming call sent.
    public func messages() async throws -> [Message] {
        let collected = MessageCollector<Message>()
        try await produce(GRPCRequestWriter(sink: MessageSink { bytes in await collected.append(try Message(serializedBytes: bytes)) }))
        return await collected.messages
    }
}

/// The messages a request stream wrote, in order.
private actor MessageCollector<Message: SwiftProtobuf.Message> {
    private(set) var messages: [Message] = []

    func append(_ message: Message) {
        messages.append(message)
    }
}
