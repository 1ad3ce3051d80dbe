import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

@Suite("Retries on a loopback server")
struct RetryTests {
    /// Fails the first `failures` requests with `status`, then answers `1`.
    static func flaky(
        failures: Int, status: HTTPResponse.Status = .serviceUnavailable, retryAfter: String? = nil,
        then success: @escaping LoopbackServer.Handler = { _ in .json("1") }
    ) -> LoopbackServer.Handler {
        let count = NIOLockedValueBox(0)
        return { request in
            let attempt = count.withLockedValue { $0 += 1; return $0 }
            guard attempt > failures else {
                var headers: HTTPFields = [:]
                if let retryAfter { headers[.retryAfter] = retryAfter }
                return Response(status: status, headers: headers)
            }
            return try await success(request)
        }
    }

    static let fast = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(10), maxDelay: .milliseconds(50))

    @Test("A server that fails twice then succeeds: three attempts, one result")
    func failsThenSucceeds() async throws {
        try await withServer(configure: { $0.retry = Self.fast }, Self.flaky(failures: 2)) { server, manager in
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 1)
            #expect(server.requests.count == 3)
        }
    }

    @Test("Attempts are bounded; the last failure is the error")
    func bounded() async throws {
        try await withServer(configure: { $0.retry = Self.fast }, Self.flaky(failures: 10, status: .badGateway)) { server, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 502, body: Data()))
            #expect(server.requests.count == 4)
        }
    }

    @Test("Statuses outside the retryable set, and non-idempotent methods, are not retried")
    func notRetried() async throws {
        try await withServer(configure: { $0.retry = Self.fast }, Self.flaky(failures: 1, status: .notFound)) { server, manager in
            _ = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(server.requests.count == 1)
        }
        try await withServer(configure: { $0.retry = Self.fast }, Self.flaky(failures: 1)) { server, manager in
            let error = await expectAPIError { try await CreateUserAPI(name: "a", role: .guest, idempotencyKey: UUID()).using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 503, body: Data()))
            #expect(server.requests.count == 1)
        }
        var safe = Self.fast
        safe.retriesNonIdempotent = true
        try await withServer(configure: { $0.retry = safe }, Self.flaky(failures: 1, then: JSONRPCServer.handle)) { server, manager in
            let difference = try await SubtractAPI(minuend: 3, subtrahend: 2).using(manager).start()
            #expect(difference == 1)
            #expect(server.requests.count == 2)
        }
    }

    @Test("Retry-After is honoured, and all attempts stay within the API's timeout")
    func retryAfterAndBudget() async throws {
        try await withServer(configure: { $0.retry = Self.fast }, Self.flaky(failures: 1, retryAfter: "1")) { server, manager in
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await CountUsersAPI().using(manager).start()
            #expect(clock.now - start >= .seconds(1))
            #expect(server.requests.count == 2)
        }
        try await withServer(configure: { $0.retry = Self.fast }, Self.flaky(failures: 1, retryAfter: "30")) { server, manager in
            let api = CountUsersAPI().using(manager)
            api.options.timeout = .seconds(10)
            let clock = ContinuousClock()
            let start = clock.now
            let error = await expectAPIError { try await api.start() }
            // The server asked for 30 s, more than the call has left: the 503 stands, at once.
            // Waiting would have ended in a timeout at 10 s; the bound leaves room for a loaded
            // machine's slow first request.
            #expect(error?.reason == .httpStatus(code: 503, body: Data()))
            #expect(clock.now - start < .seconds(5))
            #expect(server.requests.count == 1)
        }
    }

    @Test("429 Too Many Requests is retried by default, after its Retry-After")
    func tooManyRequests() async throws {
        #expect(RetryPolicy(maxAttempts: 2).retryableStatuses.contains(429))
        try await withServer(configure: { $0.retry = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(10)) },
                             Self.flaky(failures: 1, status: .tooManyRequests, retryAfter: "1")) { server, manager in
            let clock = ContinuousClock()
            let start = clock.now
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 1)
            #expect(clock.now - start >= .seconds(1))
            #expect(server.requests.count == 2)
        }
    }

    @Test("Durations too long to add to a clock or sleep: taken as a century, the call works", arguments: [
        Duration.seconds(Int64.max), .seconds(-5_000), .nanoseconds(Int64.max),
    ])
    func extremeDurations(duration: Duration) async throws {
        let retry = RetryPolicy(maxAttempts: 2, baseDelay: duration, maxDelay: .milliseconds(20))
        try await withServer(configure: { $0.retry = retry; $0.timeout = duration == .seconds(-5_000) ? .seconds(30) : duration },
                             Self.flaky(failures: 1)) { server, manager in
            let api = CountUsersAPI().using(manager)
            if duration > .zero { api.options.timeout = duration }
            let count = try await api.start()
            #expect(count == 1)
            #expect(server.requests.count == 2)
        }
    }

    @Test("Each attempt passes through the interceptors, numbered")
    func attemptsSeenByInterceptors() async throws {
        let seen = NIOLockedValueBox<[String]>([])
        try await withServer(configure: {
            $0.retry = Self.fast
            $0.interceptors = [RecordingInterceptor(name: "Log", seen: seen)]
        }, Self.flaky(failures: 2)) { _, manager in
            _ = try await CountUsersAPI().using(manager).start()
        }
        #expect(seen.withLockedValue { $0 }.filter { $0.hasPrefix("Log>") } == ["Log>rest:CountUsers#1", "Log>rest:CountUsers#2", "Log>rest:CountUsers#3"])
    }
}

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test("Retry-After and Date headers in each of HTTP's three date formats", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
    func formats(text: String) {
        #expect(Date(headerText: text) == Date(timeIntervalSince1970: 784_111_777))
    }
}
