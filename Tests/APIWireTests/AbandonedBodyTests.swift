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

/// A reply body nobody reads any more is cancelled, and its connection closed: the server sees
/// its response given up, having sent little of it.
///
/// One at a time: several endless replies at once over FoundationNetworking's URLSession
/// sometimes left one of them uncancelled for over a minute.
@Suite("Abandoned bodies on a loopback server", .serialized)
struct AbandonedBodyTests {
    /// What an endless response told the test: how much it made, and whether the client let go.
    final class Producer: Sendable {
        let made = NIOLockedValueBox<Int>(0)
        let abandoned = NIOLockedValueBox(false)

        /// 64 KiB chunks until the client lets go, announced as a gigabyte.
        func response(status: HTTPResponse.Status = .ok) -> Response {
            endless(ByteBuffer(repeating: 120, count: 64 << 10), status: status, headers: [.contentLength: "\(1 << 30)", .contentType: "application/json"])
        }

        /// `chunk` again and again until the client lets go (after `first`, when given), a
        /// millisecond apart, or as fast as the connection takes them when `flat out`.
        func endless(
            _ chunk: ByteBuffer, first: ByteBuffer? = nil, status: HTTPResponse.Status = .ok, headers: HTTPFields, flatOut: Bool = false
        ) -> Response {
            if flatOut {
                return Response(status: status, headers: headers, body: .init { [made, abandoned] writer in
                    do {
                        while true {
                            try await writer.write(chunk)
                            made.withLockedValue { $0 += chunk.readableBytes }
                        }
                    } catch {
                        abandoned.withLockedValue { $0 = true }
                        throw error
                    }
                })
            }
            let (chunks, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(4))
            continuation.onTermination = { [abandoned] _ in abandoned.withLockedValue { $0 = true } }
            Task { [made] in
                if let first { continuation.yield(first) }
                while !Task.isCancelled {
                    guard case .enqueued = continuation.yield(chunk) else { return }
                    made.withLockedValue { $0 += chunk.readableBytes }
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            return Response(status: status, headers: headers, body: .init(asyncSequence: chunks))
        }

        /// Waits until the client has let go, and checks it took little on the way.
        func expectAbandoned() async throws {
            try await waitUntil { abandoned.withLockedValue { $0 } }
            #expect(made.withLockedValue { $0 } < 256 << 20)
        }
    }

    /// Events of about 16 KiB each: the user's activity, as `UserActivityAPI` reads it.
    static let event = ByteBuffer(string: String(repeating: ": padding\n", count: 1600) + "data: {\"user_id\": 1, \"action\": \"a\", \"at\": \"2024-05-01T12:30:00Z\"}\n\n")
    static let eventHeaders: HTTPFields = [.contentType: "text/event-stream"]

    @Test("A loop over events left early lets go of the stream", .timeLimit(.minutes(2)))
    func eventLoopLeftEarly() async throws {
        let producer = Producer()
        try await withServer({ _ in producer.endless(Self.event, headers: Self.eventHeaders) }) { _, manager in
            for try await event in try await UserActivityAPI().using(manager).start() {
                #expect(event.data.userID == 1)
                break
            }
            try await producer.expectAbandoned()
        }
    }

    @Test("A loop over JSON Lines left early lets go of the stream", .timeLimit(.minutes(2)))
    func jsonLinesLoopLeftEarly() async throws {
        let producer = Producer()
        let line = ByteBuffer(string: #"{"id": 1, "name": "Ada", "role": "member", "tags": [], "created_at": "2024-05-01T12:30:00Z"}"# + "\n")
        try await withServer({ _ in producer.endless(line, headers: [.contentType: "application/jsonl"]) }) { _, manager in
            for try await user in try await ExportUsersAPI().using(manager).start() {
                #expect(user.id == 1)
                break
            }
            try await producer.expectAbandoned()
        }
    }

    @Test("An event that does not decode ends the stream and lets go of it, while the server goes on", .timeLimit(.minutes(2)))
    func undecodableEvent() async throws {
        let producer = Producer()
        let bad = ByteBuffer(string: "data: {\"user_id\": \"one\"}\n\n")
        try await withServer({ _ in producer.endless(Self.event, first: bad, headers: Self.eventHeaders) }) { _, manager in
            let stream = try await UserActivityAPI().using(manager).start()
            let error = await expectAPIError { for try await _ in stream {} }
            guard case .decoding? = error?.reason else {
                Issue.record("expected .decoding, got \(String(describing: error))")
                return
            }
            try await producer.expectAbandoned()
        }
    }

    @Test("A redirect's own body is let go of, and the call follows the redirect", .timeLimit(.minutes(2)))
    func redirectBody() async throws {
        // FoundationNetworking shows a redirect only once its whole body has arrived, so over
        // URLSession on Linux the body must end: 2 MiB of it, which the call must not wait to read.
        let endless = testHTTPTransport.name != "urlsession"
        let producer = Producer()
        try await withServer({ request in
            guard request.path == "/v1/users/count" else { return .json("7") }
            let chunk = ByteBuffer(repeating: 120, count: 64 << 10)
            if endless {
                return producer.endless(chunk, status: .found, headers: [.location: "/v1/users/moved"])
            }
            let chunks = AsyncStream<ByteBuffer> { continuation in
                for _ in 0..<32 { continuation.yield(chunk) }
                continuation.finish()
            }
            return Response(status: .found, headers: [.location: "/v1/users/moved"], body: .init(asyncSequence: chunks))
        }) { _, manager in
            #expect(try await CountUsersAPI().using(manager).start() == 7)
            if endless { try await producer.expectAbandoned() }
        }
    }

    @Test("A reply larger than maxResponseBytes fails, and its connection is closed, not left receiving", .timeLimit(.minutes(2)))
    func tooLarge() async throws {
        let producer = Producer()
        try await withServer({ _ in producer.response() }) { server, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .invalidResponse(message: "the body is larger than 67108864 bytes"))
            try await producer.expectAbandoned()
        }
    }

    @Test(
        "A reply sent flat out past maxResponseBytes, with its length or without: the call fails, the connection closes within a second, and memory stays within the bound",
        .timeLimit(.minutes(2)), .serialized, arguments: [false, true]
    )
    func tooLargeFlatOut(announced: Bool) async throws {
        let producer = Producer()
        let chunk = ByteBuffer(repeating: 120, count: 256 << 10)
        var headers: HTTPFields = [.contentType: "application/json"]
        if announced { headers[.contentLength] = "\(2 << 30)" }
        try await withServer(configure: { $0.maxResponseBytes = 8 << 20 }, { [headers] _ in
            producer.endless(chunk, headers: headers, flatOut: true)
        }) { server, manager in
            // Resident memory, read every 10 ms while the reply arrives and until the server lets go.
            let before = try #require(MemoryReading.resident)
            let peak = NIOLockedValueBox(before)
            let sampling = Task {
                while !Task.isCancelled {
                    if let reading = MemoryReading.resident { peak.withLockedValue { $0 = max($0, reading) } }
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .invalidResponse(message: "the body is larger than 8388608 bytes"))
            let failed = ContinuousClock.now
            try await waitUntil { producer.abandoned.withLockedValue { $0 } }
            sampling.cancel()
            #expect(ContinuousClock.now - failed < .seconds(1), "the connection stayed open after the call failed")
            // Over loopback the server writes gigabytes a second, and FoundationNetworking takes what
            // arrives until the cancelled transfer stops: the server may have written a few
            // hundred megabytes, but what the process holds stays far below that (the whole test
            // process is measured, other suites running beside it: the bound leaves them room,
            // and still catches a reply read to its end).
            #expect(producer.made.withLockedValue { $0 } < 1 << 30, "the server sent \(mebibytes(producer.made.withLockedValue { $0 }))")
            if !runsUnderThreadSanitizer {
                #expect(peak.withLockedValue { $0 } - before < 256 << 20, "resident memory grew by \(mebibytes(peak.withLockedValue { $0 } - before))")
            }
        }
    }

    @Test("A download whose writing fails lets go of its body", .timeLimit(.minutes(2)))
    func failedDownload() async throws {
        let producer = Producer()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID().uuidString)/file.bin")
        try await withServer({ _ in producer.response() }) { server, manager in
            let error = await expectAPIError { try await DownloadDocumentAPI(name: "file.bin", destination: missing).using(manager).start() }
            guard case .invalidRequest? = error?.reason else {
                Issue.record("expected .invalidRequest, got \(String(describing: error))")
                return
            }
            try await waitUntil { producer.abandoned.withLockedValue { $0 } }
        }
    }
}
