@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import Testing

/// Deadlines, rate limits, retry pauses, stub delays and shutdown's grace period, timed on a
/// manual clock: each test moves the clock itself and sees exactly when something happens. No
/// sockets: a scripted transport answers.
@Suite("Time on a manual clock")
struct TimingTests {
    static let user = Data(#"{"id": 1, "name": "a"}"#.utf8)

    struct User: Decodable, Sendable {
        var id: Int
        var name: String
    }

    /// A workspace's defaults, as the example workspace's: a 30 s timeout.
    static let defaults = APIDefaults(baseURL: "https://api.example.com/v1", timeout: .seconds(30))
    static let countUsers = APIDefinition(name: "CountUsers", method: .get, path: "/users/count", defaults: defaults)
    static let getUser = APIDefinition(
        name: "GetUser", wire: .http(.get, path: "/users/{id}"), retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100)), defaults: defaults
    )

    /// `GET /users/count`, an `Int`.
    static func CountUsersAPI() -> BaseAPI<Int> {
        BaseAPI(definition: countUsers, response: .json)
    }

    /// `GET /users/{id}`, retried up to 3 attempts.
    static func GetUserAPI(id: Int) -> BaseAPI<User> {
        BaseAPI(definition: getUser, response: .json, request: RequestBuilder().path("id", id))
    }

    @Test("A call's deadline fires when its timeout has passed, not a moment before")
    func deadline() async throws {
        let clock = ManualClock()
        try await withScriptedManager(clock: clock, respond: { _ in
            try await clock.sleep(for: .seconds(3600))
            return (.status(.ok), Data("1".utf8))
        }) { manager in
            let api = Self.CountUsersAPI().using(manager)
            api.options.timeout = .seconds(30)
            let call = Task { try await api.start() }
            // The transport waits an hour; the call's deadline, half a minute.
            try await waitUntil { clock.pending == [.seconds(30), .seconds(3600)] }
            clock.advance(by: .seconds(30) - .milliseconds(1))
            #expect(clock.pending == [.seconds(30), .seconds(3600)])
            clock.advance(by: .milliseconds(1))
            let error = await expectAPIError { try await call.value }
            #expect(error?.reason == .timeout(.seconds(30)))
            #expect(clock.elapsed == .seconds(30))
        }
    }

    @Test("Calls waiting for a rate limit are served first come, first served, one a token")
    func rateLimitQueue() async throws {
        let clock = ManualClock()
        let served = NIOLockedValueBox<[String]>([])
        try await withScriptedManager(clock: clock, configure: { $0.rateLimit = RateLimit(calls: 1, per: .seconds(5)) }, respond: { request in
            served.withLockedValue { $0.append(request.path ?? "") }
            return (.status(.ok), Self.user)
        }) { manager in
            var calls: [Task<User, any Error>] = []
            for id in 0..<4 {
                calls.append(Task { try await Self.GetUserAPI(id: id).using(manager).start() })
                // Each call is served, or asleep until its turn, before the next one starts.
                try await waitUntil { served.withLockedValue(\.count) + manager.rateLimiter.waitingCount("api:GetUser") == id + 1 }
            }
            #expect(served.withLockedValue { $0 } == ["/v1/users/0"])
            for turn in 1..<4 {
                clock.advance(by: .seconds(5))
                try await waitUntil { served.withLockedValue(\.count) == turn + 1 }
            }
            for call in calls { _ = try await call.value }
            #expect(served.withLockedValue { $0 } == (0..<4).map { "/v1/users/\($0)" })
            #expect(clock.elapsed == .seconds(15))
        }
    }

    @Test("A call whose turn for a rate limit would come after its deadline fails at once, without waiting")
    func rateLimitTurnPastDeadline() async throws {
        let clock = ManualClock()
        try await withScriptedManager(clock: clock, configure: { $0.rateLimit = RateLimit(calls: 1, per: .seconds(60)) }, respond: { _ in
            (.status(.ok), Data("1".utf8))
        }) { manager in
            _ = try await Self.CountUsersAPI().using(manager).start()
            let api = Self.CountUsersAPI().using(manager)
            api.options.timeout = .seconds(30)
            let error = await expectAPIError { try await api.start() }
            #expect(error?.reason == .rateLimited(message: "no call allowed before the call's timeout"))
            #expect(clock.elapsed == .zero)
        }
    }

    @Test("The wait for a rate limit counts toward the deadline: a turn in time, then a reply too late, is a timeout")
    func rateLimitWaitWithinDeadline() async throws {
        let clock = ManualClock()
        let calls = NIOLockedValueBox(0)
        try await withScriptedManager(clock: clock, configure: { $0.rateLimit = RateLimit(calls: 1, per: .milliseconds(800)) }, respond: { _ in
            // The first reply comes at once, the second after 700 ms.
            if calls.withLockedValue({ $0 += 1; return $0 }) > 1 { try await clock.sleep(for: .milliseconds(700)) }
            return (.status(.ok), Data("1".utf8))
        }) { manager in
            _ = try await Self.CountUsersAPI().using(manager).start()
            // The next token is due at 800 ms and the call's deadline is at 1 s, each in time
            // alone; the reply would come at 1.5 s. (The first call's timer sleeps until 30 s.)
            let api = Self.CountUsersAPI().using(manager)
            api.options.timeout = .seconds(1)
            let second = Task { try await api.start() }
            try await waitUntil { clock.pending == [.milliseconds(800), .seconds(1), .seconds(30)] }
            clock.advance(by: .milliseconds(800))
            try await waitUntil { clock.pending == [.seconds(1), .milliseconds(1500), .seconds(30)] }
            clock.advance(by: .milliseconds(200))
            let error = await expectAPIError { try await second.value }
            #expect(error?.reason == .timeout(.seconds(1)))
            #expect(clock.elapsed == .seconds(1))
        }
    }

    @Test("A Retry-After is waited exactly, on the manager's clock, before the next attempt")
    func retryAfter() async throws {
        let clock = ManualClock()
        let attempts = NIOLockedValueBox(0)
        try await withScriptedManager(clock: clock, respond: { _ in
            let attempt = attempts.withLockedValue { $0 += 1; return $0 }
            return attempt == 1 ? (.status(.serviceUnavailable, retryAfter: 3), Data()) : (.status(.ok), Self.user)
        }) { manager in
            // GetUser's manifest allows 3 attempts.
            let call = Task { try await Self.GetUserAPI(id: 1).using(manager).start() }
            try await waitUntil { clock.pending == [.seconds(3), .seconds(30)] }
            #expect(attempts.withLockedValue { $0 } == 1)
            clock.advance(by: .seconds(3))
            #expect(try await call.value.id == 1)
            #expect(attempts.withLockedValue { $0 } == 2)
        }
    }

    @Test("A pause that would end past the deadline is not taken: the last reply is the call's")
    func retryPastDeadline() async throws {
        let clock = ManualClock()
        let attempts = NIOLockedValueBox(0)
        try await withScriptedManager(clock: clock, respond: { _ in
            attempts.withLockedValue { $0 += 1 }
            return (.status(.serviceUnavailable, retryAfter: 60), Data())
        }) { manager in
            let error = await expectAPIError { try await Self.GetUserAPI(id: 1).using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 503, body: Data()))
            #expect(attempts.withLockedValue { $0 } == 1)
            #expect(clock.elapsed == .zero)
        }
    }

    @Test("A stub's delay is waited on the manager's clock, within the call's deadline")
    func stubDelay() async throws {
        let clock = ManualClock()
        var stubs = StubSet()
        stubs.stub("CountUsers", with: StubResponse(json: "4", delay: .seconds(2)))
        try await withScriptedManager(clock: clock, configure: { $0.stubs = stubs }, respond: { _ in
            Issue.record("a stubbed call reached the transport")
            return (.status(.ok), Data())
        }) { manager in
            let call = Task { try await Self.CountUsersAPI().using(manager).start() }
            try await waitUntil { clock.pending == [.seconds(2), .seconds(30)] }
            clock.advance(by: .seconds(2))
            #expect(try await call.value == 4)
            let slow = Self.CountUsersAPI().using(manager)
            slow.options.timeout = .seconds(1)
            let late = Task { try await slow.start() }
            // Its deadline at 3 s, its stub's answer at 4 s; the first call's timer sleeps until 30 s.
            try await waitUntil { clock.pending == [.seconds(3), .seconds(4), .seconds(30)] }
            clock.advance(by: .seconds(1))
            let error = await expectAPIError { try await late.value }
            #expect(error?.reason == .timeout(.seconds(1)))
        }
    }

    @Test("shutdown cancels the calls still running when its grace period has passed on the manager's clock")
    func shutdownGracePeriod() async throws {
        let clock = ManualClock()
        var configuration = APIManager.Configuration()
        configuration.clock = clock
        configuration.httpTransport = .scripted { _ in
            try await clock.sleep(for: .seconds(3600))
            return (.status(.ok), Data("1".utf8))
        }
        let manager = APIManager(configuration: configuration)
        let call = Task { try await Self.CountUsersAPI().using(manager).start() }
        try await waitUntil { clock.pending == [.seconds(30), .seconds(3600)] }
        let shutdown = Task { await manager.shutdown(gracePeriod: .seconds(5)) }
        try await waitUntil { clock.pending == [.seconds(5), .seconds(30), .seconds(3600)] }
        clock.advance(by: .seconds(5))
        let error = await expectAPIError { try await call.value }
        #expect(error?.reason == .cancelled)
        await shutdown.value
        #expect(clock.elapsed == .seconds(5))
    }

    @Test(
        "shutdown returns within twice sessionCloseLimit after the grace period, though a call ignores its cancellation",
        .timeLimit(.minutes(1))
    )
    func shutdownBoundedWhenCancellationIsIgnored() async throws {
        // A transport that waits for the test, whatever cancels it.
        let held = NIOLockedValueBox<[CheckedContinuation<Void, Never>]>([])
        var configuration = APIManager.Configuration()
        configuration.httpTransport = .scripted { _ in
            await withCheckedContinuation { continuation in held.withLockedValue { $0.append(continuation) } }
            return (.status(.ok), Data("1".utf8))
        }
        let manager = APIManager(configuration: configuration)
        let call = Task { try await Self.CountUsersAPI().using(manager).start() }
        try await waitUntil { held.withLockedValue { $0.count } == 1 }

        let started = ContinuousClock.now
        await manager.shutdown(gracePeriod: .zero)
        let took = ContinuousClock.now - started
        #expect(took >= APIManager.sessionCloseLimit, "shutdown took \(took)")
        // Without the bound it never returns; a full parallel run on two cores has delayed the
        // waits' tasks by more than 4 s, hence the slack.
        #expect(took < APIManager.sessionCloseLimit * 2 + .seconds(15), "shutdown took \(took)")

        // The call ends when its transport does, with what the transport gave it.
        #expect(manager.running.count == 1)
        for continuation in held.withLockedValue({ $0 }) { continuation.resume() }
        #expect(try await call.value == 1)
        #expect(manager.running.count == 0)
    }
}

/// The rate limiter's table of buckets, on a manual clock.
@Suite("Rate-limit buckets")
struct RateLimitBucketTests {
    @Test("Buckets that have refilled are dropped, so a bucket per host ever called is not kept for good; the rest keep their count")
    func sweep() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(clock: clock)
        let limit = RateLimit(calls: 2, per: .seconds(1))
        let far = clock.now + .seconds(3600)
        for host in 0..<1000 {
            try await limiter.acquire(limit, key: "host-\(host)", api: "Call", deadline: far)
        }
        #expect(limiter.count == 1000)
        // One bucket in use: two tokens taken, its limit reached.
        try await limiter.acquire(limit, key: "busy", api: "Call", deadline: far)
        try await limiter.acquire(limit, key: "busy", api: "Call", deadline: far)

        clock.advance(by: .seconds(1))
        try await limiter.acquire(limit, key: "busy", api: "Call", deadline: far)
        // A second after their one call every host-N bucket is full again: the sweep that comes
        // once the table has doubled since the last one drops them all.
        for host in 0..<60 {
            try await limiter.acquire(limit, key: "later-\(host)", api: "Call", deadline: far)
        }
        #expect(limiter.count <= 61)

        // "busy" kept its state: one token left after the refill, then none; the next waits.
        try await limiter.acquire(limit, key: "busy", api: "Call", deadline: far)
        let failing = RateLimit(calls: 2, per: .seconds(1), behavior: .fail)
        await #expect(throws: APIError.self) {
            try await limiter.acquire(failing, key: "busy", api: "Call", deadline: far)
        }
    }
}
