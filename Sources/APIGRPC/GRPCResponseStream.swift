import APIRuntime
import AsyncAlgorithms
import Foundation
import HTTPTypes
import SwiftProtobuf

/// The reply of a server- or bidirectional-streaming gRPC API: its initial metadata at once,
/// its messages as the server sends them, then its trailing metadata.
///
/// ```swift
/// for try await feature in try await ListFeaturesAPI(area).start() { … }
/// ```
///
/// The stream ends when the server ends the call with `OK`; any other status, a message that does
/// not decode, the deadline or a cancellation ends it with an `APIError` naming the API. Leaving
/// the loop early, dropping the stream, `cancel()`, or cancelling the reading task cancels the call.
public struct GRPCResponseStream<Message: SwiftProtobuf.Message>: AsyncSequence, Sendable {
    /// A message of the reply.
    public typealias Element = Message
    /// An `APIError` naming the API.
    public typealias Failure = any Error

    /// The API's name, for errors.
    public let api: String
    /// The server's initial metadata.
    public let headerFields: HTTPFields
    let reader: Reader

    init(api: String, headerFields: HTTPFields, messages: ResponseMessages) {
        self.api = api
        self.headerFields = headerFields
        self.reader = Reader(messages: messages)
    }

    /// Held by the stream and its iterators: when the last of them goes, the call is cancelled
    /// rather than leave the server writing to no one.
    final class Reader: Sendable {
        let messages: ResponseMessages
        init(messages: ResponseMessages) { self.messages = messages }
        deinit { messages.cancel() }
    }

    var messages: ResponseMessages { reader.messages }

    /// The server's trailing metadata, once the stream has ended.
    public var trailerFields: HTTPFields? { messages.trailers }

    /// Cancels the call; reading then fails with `APIError.Reason.cancelled`.
    public func cancel() { messages.cancel() }

    /// An iterator over the messages still to come; the stream is read once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(api: api, reader: reader, base: messages.channel.makeAsyncIterator())
    }

    /// Reads the reply's messages one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let api: String
        /// Kept so that the call lives as long as someone iterates it.
        let reader: Reader
        var base: AsyncThrowingChannel<Data, any Error>.Iterator

        /// The next message, or nil once the server has ended the call with OK.
        public mutating func next() async throws -> Message? {
            let bytes: Data?
            do {
                let messages = reader.messages
                var base = self.base
                bytes = try await withTaskCancellationHandler {
                    try await base.next()
                } onCancel: {
                    messages.cancel()
                }
                self.base = base
            } catch let error as APIError {
                throw error
            } catch let error as StreamDeadlinePassed {
                throw APIError(api: api, reason: .timeout(reader.messages.callTimeout ?? .zero), underlying: error)
            } catch {
                // The channel fails only with the transport's APIErrors; anything else is a surprise worth naming.
                throw APIError(api: api, reason: .transport(message: "\(error)"), underlying: error)
            }
            guard let bytes else {
                // The channel also ends when its reader is cancelled: say so rather than look finished.
                if Task.isCancelled || reader.messages.isCancelled && reader.messages.trailers == nil {
                    throw APIError(api: api, reason: .cancelled)
                }
                return nil
            }
            do {
                return try Message(serializedBytes: bytes)
            } catch {
                reader.messages.cancel()
                throw APIError.decoding(error, api: api)
            }
        }
    }
}

extension ResponseDecoder {
    /// The reply of a server- or bidirectional-streaming gRPC call.
    public static func grpcStream<Message>() -> Self where Response == GRPCResponseStream<Message> {
        .reply({ response, api in
            guard let messages = response.stream as? ResponseMessages else {
                throw APIError(api: api, reason: .invalidResponse(message: "the transport returned no message stream for a streaming call"))
            }
            return GRPCResponseStream(api: api, headerFields: response.headerFields, messages: messages)
        })
    }
}
