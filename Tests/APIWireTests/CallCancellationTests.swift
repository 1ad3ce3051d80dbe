@testable import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// `cancel()` and `cancel(tag:)` stop one call, which runs in its caller's task, wherever it waits
/// (the wire, a retry's pause, a rate limit's wait, a coalesced call, a gRPC call), and never
/// cancel the caller; against real loopback servers.
@Suite("Cancelling a call from outside its task")
struct CallCancellationTests {
    static func slow(_ delay: Duration, _ body: String = "1") -> LoopbackServer.Handler {
        { _ in
            try await Task.sleep(for: delay)
            return .json(body)
        }
    }

    /// Runs `call` in a task, waits until `ready`, runs `cancel`, and checks that the call ended
    /// as `.cancelled` within 2 s (the servers and pauses below take 3 s or more) and that the
    /// task that made it was not cancelled.
    static func expectCancelled(
        _ call: @escaping @Sendable () async throws -> some Sendable,
        once ready: () async throws -> Void,
        by cancel: () -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let caller = Task { () -> (APIError?, callerCancelled: Bool) in
            let error = await expectAPIError(call, sourceLocation: sourceLocation)
            return (error, Task.isCancelled)
        }
        try await ready()
        let clock = ContinuousClock()
        let start = clock.now
        cancel()
        let (error, callerCancelled) = await caller.value
        #expect(error?.reason == .cancelled, sourceLocation: sourceLocation)
        #expect(!callerCancelled, "the caller's task must not be cancelled", sourceLocation: sourceLocation)
        // Far sooner than the calls' slow servers answer (3 s and more), with room for a loaded
        // two-core machine; a call that was not stopped ends otherwise, caught above.
        #expect(clock.now - start < .seconds(5), sourceLocation: sourceLocation)
    }

    @Test("cancel() stops the call on the wire, not the task that made it; a later call on the instance runs")
    func instanceCancelLeavesCaller() async throws {
        try await withServer(Self.slow(.seconds(3))) { server, manager in
            let api = CountUsersAPI().using(manager)
            try await Self.expectCancelled({ try await api.start() }, once: { try await waitUntil { server.requests.count == 1 } }, by: { api.cancel() })
            // A cancelled call does not leave the instance cancelled.
            api.options.timeout = .milliseconds(100)
            let error = await expectAPIError { try await api.start() }
            #expect(error?.reason == .timeout(.milliseconds(100)))
        }
    }

    @Test("cancel(tag:) stops a call waiting out a retry's pause")
    func cancelDuringRetryPause() async throws {
        let patient = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(5), maxDelay: .seconds(5))
        try await withServer(configure: { $0.retry = patient }, { _ in Response(status: .serviceUnavailable) }) { server, manager in
            // CountUsers is not coalesced: the pause is the caller's own, not a shared call's.
            let api = CountUsersAPI().using(manager)
            api.options.tags = ["retrying"]
            try await Self.expectCancelled(
                { try await api.start() },
                once: { try await waitUntil { server.requests.count == 1 } },
                by: { #expect(manager.cancel(tag: "retrying") == 1) }
            )
            #expect(server.requests.count == 1)
        }
    }

    @Test("cancelAll() stops a call waiting for the rate limit")
    func cancelDuringRateLimitWait() async throws {
        let limit = RateLimit(calls: 1, per: .seconds(10))
        try await withServer(configure: { $0.rateLimit = limit }, { _ in .json("1") }) { server, manager in
            _ = try await CountUsersAPI().using(manager).start()
            // The next call waits 10 s for its turn; 300 ms in, it is well into that wait.
            try await Self.expectCancelled(
                { try await CountUsersAPI().using(manager).start() },
                once: { try await Task.sleep(for: .milliseconds(300)) },
                by: { #expect(manager.cancelAll() == 1) }
            )
            #expect(server.requests.count == 1)
        }
    }

    @Test("cancel() of the caller who started a coalesced call leaves the others its result")
    func cancelCoalescedLeader() async throws {
        try await withServer(Self.slow(.milliseconds(600), #"{"items": [], "total": 3, "next_cursor": null}"#)) { server, manager in
            let first = ListUsersAPI().using(manager)
            let firstTask = Task { try await first.start() }
            try await waitUntil { server.requests.count == 1 }
            let second = Task { try await ListUsersAPI().using(manager).start() }
            try await waitUntil { manager.coalescedWaiterCount == 2 }
            first.cancel()
            #expect(await expectAPIError { try await firstTask.value }?.reason == .cancelled)
            #expect(try await second.value.total == 3)
            #expect(server.requests.count == 1)
            #expect(manager.inFlightCount == 0)
        }
    }

    @Test("A reply larger than maxResponseBytes is an invalidResponse naming the API, with a length or chunked", arguments: [false, true])
    func oversizedReply(chunked: Bool) async throws {
        let big = "[" + Array(repeating: "1", count: 5_000).joined(separator: ",") + "]"
        try await withServer(configure: { $0.maxResponseBytes = 1_000 }, { _ in
            guard chunked else { return .json(big) }
            // No Content-Length: the limit must hold while the chunks arrive.
            let chunks = AsyncStream<ByteBuffer> { continuation in
                let bytes = Array(big.utf8)
                for start in stride(from: 0, to: bytes.count, by: 512) {
                    continuation.yield(ByteBuffer(bytes: bytes[start..<min(start + 512, bytes.count)]))
                }
                continuation.finish()
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(asyncSequence: chunks))
        }) { _, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.api == "CountUsers")
            guard case .invalidResponse(let message)? = error?.reason else {
                Issue.record("expected invalidResponse, got \(String(describing: error))")
                return
            }
            #expect(message.contains("1000"))
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("cancel() and cancel(tag:) stop gRPC calls, unary and streaming, and the server sees them cancelled")
    func cancelGRPC() async throws {
        try await withGRPCServer { server, manager in
            // Room for a loaded machine: the call is cancelled, not timed out, well before the
            // server would answer.
            let unary = SayHelloAPI { $0.name = "slow:40000" }.using(manager)
            unary.options.timeout = .seconds(30)
            try await Self.expectCancelled(
                { try await unary.start() },
                once: { try await waitUntil { server.calls.withLockedValue { $0.contains("SayHello:slow:40000") } } },
                by: { unary.cancel() }
            )
            // The head held back 20 s: the call waits for it inside start().
            let stream = ListFeaturesAPI(rectangle(from: 0, to: 10, headAfter: 20_000)).using(manager)
            stream.options.tags = ["maps"]
            try await Self.expectCancelled(
                { try await stream.start() },
                once: { try await waitUntil { server.calls.withLockedValue { $0.contains { $0.hasPrefix("ListFeatures") } } } },
                by: { #expect(manager.cancel(tag: "maps") == 1) }
            )
        }
    }

    @Test("cancel(tag:) and cancelAll() reach a reply stream after start() has returned, while it is being read")
    func cancelOpenStreamByTag() async throws {
        try await withGRPCServer { _, manager in
            // A message every 100 ms for 100 points: ten seconds unless something stops it.
            let stream = ListFeaturesAPI(rectangle(from: 0, to: 100, pacing: 100)).using(manager)
            stream.options.tags = ["maps"]
            let features = try await stream.start()
            let clock = ContinuousClock()
            let start = clock.now
            let reading = Task {
                var count = 0
                for try await _ in features { count += 1 }
                return count
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(manager.cancel(tag: "maps") == 1)
            let outcome = await reading.result
            guard case .failure(let error as APIError) = outcome else {
                Issue.record("expected the stream to fail with an APIError, got \(outcome)")
                return
            }
            #expect(error.reason == .cancelled)
            #expect(clock.now - start < .seconds(3))
            // The ended stream is no longer registered.
            #expect(manager.cancelAll() == 0)
        }
    }
}
