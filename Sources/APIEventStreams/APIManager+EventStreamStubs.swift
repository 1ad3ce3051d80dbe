import APIRuntime
import Foundation

/// Typed stubs for APIs whose reply is a stream of events or JSON lines: the stub returns the
/// stream's items, and the API reads them from a body written as its server writes one.
extension APIManager {
    /// Answers every call of `api`, a Server-Sent Events API, with `answer`'s events, each one's
    /// data as JSON.
    public func stub<API: BaseAPI<ServerEventStream<Payload>>, Payload: Encodable>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> [ServerEvent<Payload>]
    ) {
        register(api, delay: delay) { api, call in
            let encoder = JSONCoding.makeEncoder()
            var body = ""
            for event in try await answer(api) {
                body += Self.eventText(event, data: String(decoding: try encoder.encode(event.data), as: UTF8.self))
            }
            return call.reply(result: Data(body.utf8), contentType: "text/event-stream")
        }
    }

    /// Answers every call of `api`, a Server-Sent Events API whose data is text, with `answer`'s
    /// events.
    public func stub<API: BaseAPI<ServerEventStream<String>>>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> [ServerEvent<String>]
    ) {
        register(api, delay: delay) { api, call in
            let body = try await answer(api).map { Self.eventText($0, data: $0.data) }.joined()
            return call.reply(result: Data(body.utf8), contentType: "text/event-stream")
        }
    }

    /// Answers every call of `api`, a JSON Lines API, with `answer`'s values, one a line.
    public func stub<API: BaseAPI<JSONLinesStream<Element>>, Element: Encodable>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> [Element]
    ) {
        register(api, delay: delay) { api, call in
            let encoder = JSONCoding.makeEncoder()
            var body = Data()
            for element in try await answer(api) {
                body.append(try encoder.encode(element))
                body.append(UInt8(ascii: "\n"))
            }
            return call.reply(result: body, contentType: "application/jsonl")
        }
    }

    /// One event as the wire carries it: its fields, a `data:` line for each line of `data`, and
    /// the blank line that ends it.
    private static func eventText<Payload>(_ event: ServerEvent<Payload>, data: String) -> String {
        var text = ""
        if let name = event.event { text += "event: \(name)\n" }
        if let id = event.id { text += "id: \(id)\n" }
        if let retry = event.retry { text += "retry: \(retry.components.seconds * 1000 + retry.components.attoseconds / 1_000_000_000_000_000)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return text + "\n"
    }
}
