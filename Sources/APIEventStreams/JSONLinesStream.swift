import APIRuntime
import Foundation
import OpenAPIRuntime

/// A reply of JSON Lines (`application/jsonl`, one JSON value per line), read as they arrive:
/// the type of an API declared with `response: { jsonLines: Element }`.
///
/// It can be iterated once. Blank lines are skipped; a line that does not decode fails with
/// `.decoding`, naming the API; a stream that breaks off fails with `.transport`, and
/// `api.cancel()` and `APIManager.cancel(tag:)` end it with `.cancelled`. Leaving the loop early,
/// or dropping the stream, ends it and closes its connection.
public struct JSONLinesStream<Element: Decodable & Sendable>: AsyncSequence, Sendable {
    /// An `APIError` naming the API.
    public typealias Failure = any Error

    let reader: BodyReader

    init(body: ReplyBody) {
        self.reader = BodyReader(body)
    }

    var body: ReplyBody { reader.body }

    /// Reads the reply's lines one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var lines: JSONLinesDeserializationSequence<ReplyBody.Bytes>.Iterator<ReplyBody.Bytes.AsyncIterator>
        /// Kept so that the stream lives as long as someone iterates it.
        let reader: BodyReader

        /// The next line's value, or nil once the reply has ended.
        public mutating func next() async throws -> Element? {
            while let line = try await lines.next() {
                if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) { continue }
                do {
                    return try JSONCoding.decoder.decode(Element.self, from: Data(line))
                } catch {
                    reader.body.cancel()
                    throw APIError.decoding(error, api: reader.body.api)
                }
            }
            return nil
        }
    }

    /// An iterator over the lines still to come; the stream is read once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lines: JSONLinesDeserializationSequence(upstream: body.bytes).makeAsyncIterator(), reader: reader)
    }
}
