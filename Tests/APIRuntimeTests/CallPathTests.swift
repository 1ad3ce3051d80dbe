@testable import APIRuntime
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing

/// A token provider whose refresh never returns (a keychain prompt nobody answers, a refresh
/// request without a timeout).
struct HangingTokenProvider: TokenProvider {
    func initialToken() async throws -> String { "token-0" }

    func refreshToken(replacing rejected: String) async throws -> String {
        try await Task.sleep(for: .seconds(3600))
        return "never"
    }
}

/// The call path's promises: what coalesced RPC callers get, when an early `cancel()` counts,
/// and the one deadline every wait of a call sits inside.
@Suite("The call path on a loopback server")
struct CallPathTests {
    @Test("Ten identical concurrent JSON-RPC calls under coalesce: one reaches the server, all ten get its result")
    func coalescedJSONRPC() async throws {
        let handler: LoopbackServer.Handler = { request in
            try await Task.sleep(for: .milliseconds(200))
            return JSONRPCServer.handle(request)
        }
        try await withServer(handler) { server, manager in
            let results = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await SumAPI(a: 1, b: 2, c: 4).using(manager).start() }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results == Array(repeating: 7, count: 10))
            #expect(server.requests.count == 1)
        }
    }

    @Test("A custom RPC protocol's coalesced callers share the result too")
    func coalescedCustomRPC() async throws {
        let handler: LoopbackServer.Handler = { _ in
            try await Task.sleep(for: .milliseconds(200))
            return .json(#"{"code": 0, "data": 12}"#)
        }
        try await withServer(handler) { server, manager in
            let results = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<5 {
                    group.addTask { try await CountMembersAPI(group: "staff").using(manager).start() }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results == Array(repeating: 12, count: 5))
            #expect(server.requests.count == 1)
        }
    }

    @Test("cancel() right after `async let` cancels that call, however early; the next call on the instance runs")
    func cancelRightAfterAsyncLet() async throws {
        try await withServer({ _ in
            try await Task.sleep(for: .milliseconds(300))
            return .json("3")
        }) { _, manager in
            for _ in 0..<20 {
                let api = CountUsersAPI().using(manager)
                async let count = api.start()
                api.cancel()
                var reason: APIError.Reason?
                do {
                    _ = try await count
                } catch let error as APIError {
                    reason = error.reason
                }
                #expect(reason == .cancelled)
                let again = try await api.start()
                #expect(again == 3)
            }
        }
    }

    @Test("A hung token refresh obeys the call's deadline and its cancellation")
    func hungRefresh() async throws {
        let auth = AuthenticationInterceptor(provider: HangingTokenProvider())
        try await withServer(configure: { $0.interceptors = [auth] }, { _ in
            .json(#"{"error": "expired"}"#, status: .unauthorized)
        }) { _, manager in
            let clock = ContinuousClock()
            var start = clock.now
            let first = CountUsersAPI().using(manager)
            first.timeout = .milliseconds(500)
            let timedOut = await expectAPIError { try await first.start() }
            #expect(timedOut?.reason == .timeout(.milliseconds(500)))
            #expect(clock.now - start < .seconds(2))

            let api = CountUsersAPI().using(manager)
            api.timeout = .seconds(60)
            start = clock.now
            let call = Task { try await api.start() }
            try await Task.sleep(for: .milliseconds(200))
            api.cancel()
            let error = await expectAPIError { try await call.value }
            #expect(error?.reason == .cancelled)
            #expect(clock.now - start < .seconds(2))
        }
    }

    @Test("A wait for the rate limit counts toward the call's deadline; a turn past it fails at once")
    func rateLimitWaitWithinDeadline() async throws {
        let limit = RateLimit(calls: 1, per: .milliseconds(800))
        try await withServer(configure: { $0.rateLimit = limit }, CallCancellationTests.slow(.milliseconds(700))) { server, manager in
            // This API's turn is taken now, so the call's next turn is 800 ms away, and the server
            // then takes 700 ms: more than the second the call has in all, though each fits alone.
            try await manager.rateLimiter.acquire(limit, key: "api:CountUsers", api: "CountUsers", deadline: .now + .seconds(5))
            let api = CountUsersAPI().using(manager)
            api.timeout = .seconds(1)
            let clock = ContinuousClock()
            let start = clock.now
            let error = await expectAPIError { try await api.start() }
            #expect(error?.reason == .timeout(.seconds(1)))
            #expect(clock.now - start < .seconds(3))
        }
        try await withServer(configure: { $0.rateLimit = RateLimit(calls: 1, per: .seconds(30)) }, { _ in .json("1") }) { server, manager in
            _ = try await CountUsersAPI().using(manager).start()
            // A turn 30 s away cannot come within 500 ms: the call fails without waiting.
            let api = CountUsersAPI().using(manager)
            api.timeout = .milliseconds(500)
            let error = await expectAPIError { try await api.start() }
            guard case .rateLimited? = error?.reason else {
                Issue.record("expected .rateLimited, got \(String(describing: error))")
                return
            }
            #expect(server.requests.count == 1)
        }
    }

    @Test("A body that stalls after its head still times out at the call's deadline")
    func stalledBody() async throws {
        try await withServer({ _ in
            let stalling = AsyncStream<ByteBuffer> { continuation in
                continuation.yield(ByteBuffer(string: "[1,"))
                // The rest never comes.
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(asyncSequence: stalling))
        }) { _, manager in
            let api = CountUsersAPI().using(manager)
            api.timeout = .milliseconds(500)
            let clock = ContinuousClock()
            let start = clock.now
            let error = await expectAPIError { try await api.start() }
            #expect(error?.reason == .timeout(.milliseconds(500)))
            #expect(clock.now - start < .seconds(3))
        }
    }
}

@Suite("JSON-RPC batches: settings and cancellation")
struct JSONRPCBatchSettingsTests {
    @Test("A member whose headers differ from the first member's fails alone; the rest are sent")
    func differentHeadersRefused() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(SumAPI(a: 1, b: 2, c: 4))
            let other = SubtractAPI(minuend: 42, subtrahend: 23)
            other.headers = [(name: "X-Account", value: "b")]
            let difference = batch.add(other)
            try await batch.send()
            #expect(try sum.get() == 7)
            guard case .invalidRequest(let message)? = difference.result.failureValue?.reason else {
                Issue.record("expected an invalid request, got \(difference.result)")
                return
            }
            #expect(message.contains("one set of headers"))
            #expect(server.requests.count == 1)
        }
    }

    @Test("A batch is retried only when every member's policy allows it")
    func retryNeedsEveryMember() async throws {
        let attempts = NIOLockedValueBox(0)
        try await withServer(configure: {
            $0.retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10))
        }, { request in
            attempts.withLockedValue { $0 += 1 }
            return .json("{}", status: .serviceUnavailable)
        }) { _, manager in
            // JSON-RPC methods are not idempotent unless declared so: no member allows a retry.
            let batch = JSONRPCBatch(manager: manager)
            batch.add(SumAPI(a: 1, b: 2, c: 4))
            batch.add(SubtractAPI(minuend: 1, subtrahend: 1))
            _ = await expectAPIError { try await batch.send() }
            #expect(attempts.withLockedValue { $0 } == 1)
        }
    }

    @Test("cancel(tag:) with a member's tag cancels the batch on the wire")
    func cancelBatchByTag() async throws {
        try await withServer({ _ in
            try await Task.sleep(for: .seconds(5))
            return .json("[]")
        }) { _, manager in
            let batch = JSONRPCBatch(manager: manager)
            let sum = SumAPI(a: 1, b: 2, c: 4)
            sum.tags = ["math"]
            batch.add(sum)
            let clock = ContinuousClock()
            let start = clock.now
            let sending = Task { try await batch.send() }
            try await Task.sleep(for: .milliseconds(200))
            #expect(manager.cancel(tag: "math") == 1)
            let error = await expectAPIError { try await sending.value }
            #expect(error?.reason == .cancelled)
            #expect(clock.now - start < .seconds(3))
        }
    }
}
