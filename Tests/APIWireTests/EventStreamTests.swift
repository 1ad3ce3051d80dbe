import APIEventStreams
import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// Server-Sent Events and JSON Lines replies, read as the server sends them.
@Suite("Event streams on a loopback server")
struct EventStreamTests {
    /// `text` in chunks of `size` bytes, so that events and lines straddle chunk boundaries.
    static func chunked(_ text: String, size: Int) -> AsyncStream<ByteBuffer> {
        let bytes = Array(text.utf8)
        return AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
            }
            continuation.finish()
        }
    }

    static func eventStream(_ text: String, chunkSize: Int = 1000) -> Response {
        Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .init(asyncSequence: chunked(text, size: chunkSize)))
    }

    @Test("10,000 events arrive in order, decoded, with ids, types and retry; comments and data-less events are skipped")
    func tenThousandEvents() async throws {
        var text = ": a comment the client ignores\n\nretry: 2500\n\n"
        for index in 0..<10_000 {
            // Every line ending the format allows.
            let end = ["\n", "\r\n", "\r"][index % 3]
            let id = index % 2 == 0 ? "id: \(index)\(end)" : ""
            let type = index % 100 == 0 ? "event: milestone\(end)" : ""
            text += "\(id)\(type)data: {\"user_id\": \(index), \"action\": \"act-\(index)\",\(end)data: \"at\": \"2024-05-01T12:30:00Z\"}\(end)\(end)"
        }
        let stream = text
        try await withServer({ _ in Self.eventStream(stream, chunkSize: 777) }) { server, manager in
            let stream = try await UserActivityAPI(role: .admin).using(manager).start()
            var received: [ServerEvent<ActivityEvent>] = []
            for try await event in stream { received.append(event) }

            #expect(received.count == 10_000)
            #expect(received.map(\.data.userID) == Array(0..<10_000))
            #expect(received.allSatisfy { $0.data.action == "act-\($0.data.userID)" })
            #expect(received[3].id == "2", "an event without an id keeps the last one")
            #expect(received[4].id == "4")
            #expect(received[100].event == "milestone")
            #expect(received[101].event == nil)
            #expect(received.allSatisfy { $0.retry == .milliseconds(2500) })
            #expect(server.requests.first?.target == "/v1/users/activity?role=admin")
        }
    }

    @Test("lastEventID is sent as Last-Event-ID, to resume a stream")
    func resume() async throws {
        try await withServer({ _ in Self.eventStream("") }) { server, manager in
            let stream = try await UserActivityAPI(lastEventID: "41").using(manager).start()
            for try await _ in stream {}
            #expect(server.requests.first?.headers[HTTPField.Name("Last-Event-ID")!] == "41")
        }
    }

    @Test("A stream that ends partway through an event is an error, not a shorter event")
    func cutMidEvent() async throws {
        let text = "data: {\"user_id\": 1, \"action\": \"a\", \"at\": \"2024-05-01T12:30:00Z\"}\n\ndata: {\"user_id\": 2,"
        try await withServer({ _ in Self.eventStream(text) }) { _, manager in
            let stream = try await UserActivityAPI().using(manager).start()
            var received: [Int] = []
            let error = await expectAPIError {
                for try await event in stream { received.append(event.data.userID) }
            }
            #expect(received == [1])
            #expect(error?.api == "UserActivity")
            #expect(error?.reason == .invalidResponse(message: "the event stream ended partway through an event"))
        }
    }

    @Test("An event whose data does not decode is .decoding, naming the API")
    func badEvent() async throws {
        try await withServer({ _ in Self.eventStream("data: {\"user_id\": \"seven\"}\n\n") }) { _, manager in
            let stream = try await UserActivityAPI().using(manager).start()
            let error = await expectAPIError { for try await _ in stream {} }
            #expect(error?.api == "UserActivity")
            guard case .decoding(let path, _)? = error?.reason else {
                Issue.record("expected .decoding, got \(String(describing: error))")
                return
            }
            #expect(path == "user_id")
        }
    }

    @Test("cancel() and cancel(tag:) end an open stream with .cancelled, after start() has returned")
    func cancelOpenStream() async throws {
        let first = "data: {\"user_id\": 1, \"action\": \"a\", \"at\": \"2024-05-01T12:30:00Z\"}\n\n"
        try await withServer({ _ in
            // One event, then silence: the stream stays open.
            let chunks = AsyncStream<ByteBuffer> { $0.yield(ByteBuffer(string: first)) }
            return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .init(asyncSequence: chunks))
        }) { _, manager in
            for cancelsByTag in [false, true] {
                let api = UserActivityAPI().using(manager)
                api.options.tags = ["feed"]
                let stream = try await api.start()
                let reader = Task {
                    var count = 0
                    for try await _ in stream { count += 1 }
                    return count
                }
                try await Task.sleep(for: .milliseconds(200))
                if cancelsByTag { manager.cancel(tag: "feed") } else { api.cancel() }
                let error = await expectAPIError { _ = try await reader.value }
                #expect(error?.reason == .cancelled)
            }
        }
    }

    @Test("JSON Lines: every line decoded in order, blank lines skipped")
    func jsonLines() async throws {
        var text = ""
        for index in 0..<2_000 {
            text += #"{"id": \#(index), "name": "User \#(index)", "role": "member", "tags": [], "created_at": "2024-05-01T12:30:00Z"}"# + "\n"
            if index % 500 == 0 { text += "\n" }
        }
        let lines = text
        try await withServer({ _ in
            Response(status: .ok, headers: [.contentType: "application/jsonl"], body: .init(asyncSequence: Self.chunked(lines, size: 333)))
        }) { _, manager in
            var ids: [Int] = []
            for try await user in try await ExportUsersAPI().using(manager).start() { ids.append(user.id) }
            #expect(ids == Array(0..<2_000))
        }
    }

    /// A line without its end, and an event of many lines, each past 64 KiB.
    static let overlongLine = "data: " + String(repeating: "a", count: 200_000)
    static let overlongEvent = String(repeating: "data: " + String(repeating: "b", count: 1_000) + "\n", count: 200)

    @Test(
        "A line, or an event, longer than maxStreamLineBytes ends the stream with .invalidResponse, while the server is still sending",
        .timeLimit(.minutes(2)), arguments: [("a line without its end", Self.overlongLine), ("an event of many lines", Self.overlongEvent)]
    )
    func longLine(what: String, text: String) async throws {
        try await withServer(configure: { $0.maxStreamLineBytes = 64 << 10 }, { _ in
            // The text, then nothing for a minute: the stream must end on its own account.
            let chunks = AsyncStream<ByteBuffer> { continuation in
                continuation.yield(ByteBuffer(string: text))
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .init(asyncSequence: chunks))
        }) { _, manager in
            let stream = try await UserActivityAPI().using(manager).start()
            let error = await expectAPIError { for try await _ in stream {} }
            guard case .invalidResponse(let message)? = error?.reason else {
                Issue.record("expected .invalidResponse for \(what), got \(String(describing: error))")
                return
            }
            #expect(message.hasSuffix("of the stream is longer than 65536 bytes"), "\(message)")
        }
    }

    @Test("A JSON Lines line longer than maxStreamLineBytes ends the stream with .invalidResponse", .timeLimit(.minutes(2)))
    func longJSONLine() async throws {
        try await withServer(configure: { $0.maxStreamLineBytes = 64 << 10 }, { _ in
            let chunks = AsyncStream<ByteBuffer> { continuation in
                continuation.yield(ByteBuffer(string: #"{"id": 1, "name": ""# + String(repeating: "x", count: 200_000)))
            }
            return Response(status: .ok, headers: [.contentType: "application/jsonl"], body: .init(asyncSequence: chunks))
        }) { _, manager in
            let error = await expectAPIError { for try await _ in try await ExportUsersAPI().using(manager).start() {} }
            #expect(error?.reason == .invalidResponse(message: "a line of the stream is longer than 65536 bytes"))
        }
    }
}
