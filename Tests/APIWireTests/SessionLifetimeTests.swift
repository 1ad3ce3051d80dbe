import APIEventStreams
import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
import WireTestSupport

/// Sessions and the manager's shutdown, while replies are still streaming.
@Suite("Sessions with open streams, and shutdown, on loopback servers")
struct SessionLifetimeTests {
    static func event(_ id: Int) -> ByteBuffer {
        ByteBuffer(string: "data: {\"user_id\": \(id), \"action\": \"a\", \"at\": \"2024-05-01T12:30:00Z\"}\n\n")
    }

    @Test("An open event stream goes on when its session is the least recently used and another host is called")
    func openStreamIsNotEvicted() async throws {
        let (events, feed) = AsyncStream.makeStream(of: ByteBuffer.self)
        let other = try await LoopbackServer.start { _ in .text("other") }
        try await withServer(configure: { $0.maxSessions = 1 }, { _ in
            Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .init(asyncSequence: events))
        }) { server, manager in
            feed.yield(Self.event(1))
            var iterator = try await UserActivityAPI().using(manager).start().makeAsyncIterator()
            #expect(try await iterator.next()?.data.userID == 1)

            // A second host, with room for one session: the stream's session is the one to go.
            let definition = APIDefinition(name: "Other", method: .get, path: "/other", defaults: APIDefaults(baseURL: other.baseURL))
            #expect(try await BaseAPI(definition: definition, response: .text).using(manager).start() == "other")
            #expect(manager.sessionCount == 1)

            feed.yield(Self.event(2))
            feed.finish()
            #expect(try await iterator.next()?.data.userID == 2)
            #expect(try await iterator.next() == nil)
        }
    }

    @Test(
        "shutdown returns within its grace period and a bound, with a stream open and unread, one being read, and a call the server never answers",
        .timeLimit(.minutes(2))
    )
    func shutdownIsBounded() async throws {
        let server = try await LoopbackServer.start { request in
            if request.path.hasSuffix("/activity") {
                // One event, then silence that never ends.
                let chunks = AsyncStream<ByteBuffer> { $0.yield(Self.event(1)) }
                return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .init(asyncSequence: chunks))
            }
            try await Task.sleep(for: .seconds(120))
            return .text("too late")
        }
        var configuration = APIManager.Configuration()
        configuration.httpTransport = testHTTPTransport
        configuration.baseURLOverrides = ["https://api.example.com/v1": server.baseURL + "/v1"]
        let manager = APIManager(configuration: configuration)

        let unread = try await UserActivityAPI().using(manager).start()
        let read = try await UserActivityAPI().using(manager).start()
        let reader = Task {
            var count = 0
            for try await _ in read { count += 1 }
            return count
        }
        let stalled = Task {
            let api = GetUserAPI(id: 1).using(manager)
            api.options.timeout = .seconds(120)
            return try await api.start()
        }
        try await waitUntil { server.requests.count == 3 }

        let grace = Duration.milliseconds(500)
        let started = ContinuousClock.now
        await manager.shutdown(gracePeriod: grace)
        let took = ContinuousClock.now - started
        // Its own bound is grace + 2 × sessionCloseLimit; a full parallel run on two cores has
        // delayed the waits' tasks by more than 4 s. A shutdown that waits for the server takes 120 s.
        #expect(took < grace + APIManager.sessionCloseLimit * 2 + .seconds(15), "shutdown took \(took)")

        let readerError = await expectAPIError { _ = try await reader.value }
        #expect(readerError?.reason == .cancelled)
        let stalledError = await expectAPIError { _ = try await stalled.value }
        #expect(stalledError?.reason == .cancelled)
        withExtendedLifetime(unread) {}
    }
}
