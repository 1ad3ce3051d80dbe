import APIRuntime
import Foundation
import OpenAPIRuntime

/// One server-sent event, its `data` decoded into the type the manifest declares.
public struct ServerEvent<Payload: Sendable>: Sendable {
    /// The event's type (`event:`); nil for the default, `message`.
    public var event: String?
    /// The stream's last event ID as of this event (the latest `id:` the server sent, on this event
    /// or an earlier one): what to send as `lastEventID` to resume after it.
    public var id: String?
    /// The event's `data:` lines, joined and decoded.
    public var data: Payload
    /// How long the server asks a client to wait before reconnecting, if it said so (`retry:`),
    /// on this event or an earlier one.
    public var retry: Duration?

    /// An event carrying `data`: for a test's stub, which writes it as a server would.
    public init(data: Payload, event: String? = nil, id: String? = nil, retry: Duration? = nil) {
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry
    }
}

extension ServerEvent: Equatable where Payload: Equatable {}
extension ServerEvent: Hashable where Payload: Hashable {}

/// A reply of Server-Sent Events (`text/event-stream`), read as they arrive: the type of an API
/// declared with `response: { events: Payload }`.
///
/// ```swift
/// for try await message in try await ChatFeedAPI(room: "general").start() {
///     print(message.data.text)
/// }
/// ```
///
/// It can be iterated once. Events come in order; an event without `data:` sets the last event ID
/// and the retry delay but is not delivered. A stream that ends partway through an event fails
/// with `.invalidResponse` rather than dropping or passing off the part it got; one that breaks
/// off fails with `.transport`; `api.cancel()` and `APIManager.cancel(tag:)` end it with
/// `.cancelled`. To resume, call the API again with `lastEventID:` set to the last event's `id`,
/// after its `retry` delay. Leaving the loop early, or dropping the stream, ends it and closes its
/// connection; a stream kept but not read holds its connection, reading no more than a megabyte
/// ahead, until it is cancelled or the server ends it.
public struct ServerEventStream<Payload: Sendable>: AsyncSequence, Sendable {
    /// An event of the stream.
    public typealias Element = ServerEvent<Payload>
    /// An `APIError` naming the API.
    public typealias Failure = any Error

    let reader: BodyReader
    let decode: @Sendable (String) throws -> Payload

    init(body: ReplyBody, decode: @escaping @Sendable (String) throws -> Payload) {
        self.reader = BodyReader(body)
        self.decode = decode
    }

    var body: ReplyBody { reader.body }

    /// Reads the stream's events one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var events: ServerSentEventsDeserializationSequence<WholeEvents<ServerSentEventsLineDeserializationSequence<ReplyBody.Bytes>>>.Iterator<WholeEvents<ServerSentEventsLineDeserializationSequence<ReplyBody.Bytes>>.AsyncIterator>
        /// Kept so that the stream lives as long as someone iterates it.
        let reader: BodyReader
        let decode: @Sendable (String) throws -> Payload
        var lastEventID: String?
        var retry: Duration?

        /// The next event, or nil once the server has ended the stream.
        public mutating func next() async throws -> ServerEvent<Payload>? {
            while let event = try await events.next() {
                lastEventID = event.id ?? lastEventID
                retry = event.retry.map { .milliseconds($0) } ?? retry
                guard let data = event.data else { continue }
                do {
                    return ServerEvent(data: try decode(data), event: event.event, id: lastEventID, retry: retry)
                } catch {
                    reader.body.cancel()
                    throw APIError.decoding(error, api: reader.body.api)
                }
            }
            return nil
        }
    }

    /// An iterator over the events still to come; the stream is read once.
    public func makeAsyncIterator() -> AsyncIterator {
        let lines = ServerSentEventsLineDeserializationSequence(upstream: body.bytes)
        let events = ServerSentEventsDeserializationSequence(upstream: WholeEvents(lines: lines, body: body), while: { _ in true })
        return AsyncIterator(events: events.makeAsyncIterator(), reader: reader, decode: decode)
    }
}

/// The lines of an event stream, failing at the end when the last event was cut off: the Server-
/// Sent Events parser drops an unfinished event at the end of its input, as the specification
/// says a browser does, which would hide a stream cut short.
struct WholeEvents<Lines: AsyncSequence & Sendable>: AsyncSequence, Sendable where Lines.Element == ArraySlice<UInt8> {
    typealias Element = ArraySlice<UInt8>
    let lines: Lines
    let body: ReplyBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var lines: Lines.AsyncIterator
        let body: ReplyBody
        /// Whether a field line has come since the last blank line, so an event is unfinished.
        var inEvent = false
        /// The bytes of the event's lines so far: the parser holds them until the event ends.
        var eventLength = 0

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let line = try await lines.next() else {
                if inEvent {
                    throw APIError(api: body.api, reason: .invalidResponse(message: "the event stream ended partway through an event"))
                }
                return nil
            }
            // A comment (`:`) is not part of an event.
            if line.isEmpty {
                inEvent = false
                eventLength = 0
            } else if line.first != UInt8(ascii: ":") {
                inEvent = true
                eventLength += line.count
                if eventLength > body.maxLineBytes {
                    body.cancel()
                    throw body.lineTooLong("an event")
                }
            }
            return line
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lines: lines.makeAsyncIterator(), body: body)
    }
}
