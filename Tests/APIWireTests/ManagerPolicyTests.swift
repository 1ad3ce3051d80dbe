@testable import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// The manager's policies under concurrency, against real loopback servers.
@Suite("Manager policies on a loopback server")
struct ManagerPolicyTests {
    static let page = #"{"items": [], "total": 3, "next_cursor": null}"#

    static func slow(_ delay: Duration, _ respond: @escaping LoopbackServer.Handler) -> LoopbackServer.Handler {
        { request in
            try await Task.sleep(for: delay)
            return try await respond(request)
        }
    }

    @Test("reject: 1,000 concurrent identical calls, exactly one reaches the server")
    func thousandRejected() async throws {
        try await withServer(Self.slow(.milliseconds(500)) { _ in Response(status: .noContent) }) { server, manager in
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<1000 {
                    group.addTask { (try? await DeleteUserAPI(id: 5).using(manager).start()) != nil }
                }
                return await group.reduce(into: [0, 0]) { $0[$1 ? 0 : 1] += 1 }
            }
            #expect(outcomes == [1, 999])
            #expect(server.requests.count == 1)
            #expect(manager.inFlightCount == 0)
            #expect(manager.sessionCount == 1)
        }
    }

    @Test("coalesce: 1,000 concurrent identical calls share one request and its result")
    func thousandCoalesced() async throws {
        try await withServer(Self.slow(.milliseconds(300)) { _ in .json(Self.page) }) { server, manager in
            let totals = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<1000 {
                    group.addTask { try await ListUsersAPI(role: .admin).using(manager).start().total }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(totals.count == 1000)
            #expect(totals.allSatisfy { $0 == 3 })
            #expect(server.requests.count == 1)
            #expect(manager.inFlightCount == 0)
        }
    }

    @Test("coalesce: cancelling one waiter, even the first caller, leaves the others their result")
    func coalescedCancellation() async throws {
        try await withServer(Self.slow(.milliseconds(400)) { _ in .json(Self.page) }) { server, manager in
            let first = Task { try await ListUsersAPI().using(manager).start() }
            try await waitUntil { server.requests.count == 1 }
            let second = Task { try await ListUsersAPI().using(manager).start() }
            let third = Task { try await ListUsersAPI().using(manager).start() }
            try await waitUntil { manager.coalescedWaiterCount == 3 }
            first.cancel()
            second.cancel()
            #expect(await expectAPIError { try await first.value }?.reason == .cancelled)
            #expect(await expectAPIError { try await second.value }?.reason == .cancelled)
            let page = try await third.value
            #expect(page.total == 3)
            #expect(server.requests.count == 1)
            #expect(manager.inFlightCount == 0)
        }
    }

    @Test("A significant header makes calls different: two users' identical lists are two requests")
    func significantHeaders() async throws {
        try await withServer(Self.slow(.milliseconds(200)) { _ in .json(Self.page) }) { server, manager in
            async let ann: UserPage = {
                let api = ListUsersAPI().using(manager)
                api.options.headers = [(name: "Authorization", value: "Bearer ann")]
                return try await api.start()
            }()
            async let bob: UserPage = {
                let api = ListUsersAPI().using(manager)
                api.options.headers = [(name: "Authorization", value: "Bearer bob")]
                return try await api.start()
            }()
            _ = try await (ann, bob)
            #expect(server.requests.count == 2)
        }
    }

    @Test("Rate limits: over the limit a call fails at once (when: fail) or waits its turn (wait)")
    func rateLimits() async throws {
        try await withServer({ _ in Response(status: .ok) }) { server, manager in
            for _ in 0..<5 { _ = try await CheckHealthAPI().using(manager).start() }
            let error = await expectAPIError { try await CheckHealthAPI().using(manager).start() }
            guard case .rateLimited? = error?.reason else {
                Issue.record("expected a rate-limit error, got \(String(describing: error))")
                return
            }
            #expect(server.requests.count == 5)
        }
        try await withServer(configure: { $0.rateLimit = RateLimit(calls: 1, per: .milliseconds(200)) }, { _ in .json("1") }) { server, manager in
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<3 { _ = try await CountUsersAPI().using(manager).start() }
            #expect(clock.now - start >= .milliseconds(380))
            #expect(server.requests.count == 3)
        }
    }

    static let user = #"{"id": 1, "name": "a", "role": "guest", "tags": [], "created_at": "2024-01-01T00:00:00Z"}"#

    @Test("shutdown lets calls in flight finish within its grace period, cancels the rest after it, and refuses new calls at once")
    func shutdownGracePeriod() async throws {
        try await withServer({ request in
            try await Task.sleep(for: request.path.hasSuffix("/users/1") ? .milliseconds(500) : .seconds(30))
            return .json(Self.user)
        }) { server, manager in
            let quick = Task { try await GetUserAPI(id: 1).using(manager).start() }
            let slow = Task { try await GetUserAPI(id: 2).using(manager).start() }
            try await waitUntil { server.requests.count == 2 }

            let clock = ContinuousClock()
            let start = clock.now
            let shutdown = Task { await manager.shutdown(gracePeriod: .seconds(3)) }
            try await waitUntil { manager.running.isClosed }
            let refused = await expectAPIError { try await CheckHealthAPI().using(manager).start() }
            #expect(refused?.underlying is ManagerShutDown)
            #expect(clock.now - start < .seconds(2), "refused at once, not at the grace period's end")
            #expect(try await quick.value.id == 1, "finished within the grace period")
            await shutdown.value
            let elapsed = clock.now - start
            #expect(elapsed >= .seconds(3) && elapsed < .seconds(15), "\(elapsed)")
            #expect(await expectAPIError { try await slow.value }?.reason == .cancelled)
            #expect(server.requests.count == 2)
        }
    }

    @Test("cancel(tag:) cancels the calls of a group; cancelAll() the rest")
    func cancelByTag() async throws {
        // Slow enough that on a loaded machine every call is still waiting when it is cancelled.
        try await withServer(Self.slow(.seconds(10)) { _ in .json("1") }) { server, manager in
            let user = Task { try await GetUserAPI(id: 1).using(manager).start() }
            let list = Task { try await ListUsersAPI().using(manager).start() }
            let count = Task { try await CountUsersAPI().using(manager).start() }
            try await waitUntil { server.requests.count == 3 }
            #expect(manager.cancel(tag: "users") == 2)
            #expect(await expectAPIError { try await user.value }?.reason == .cancelled)
            #expect(await expectAPIError { try await list.value }?.reason == .cancelled)
            #expect(manager.cancelAll() == 1)
            #expect(await expectAPIError { try await count.value }?.reason == .cancelled)
        }
    }

    @Test("The session cache keeps the most recent sessions; an evicted one finishes its call first")
    func leastRecentlyUsedSessions() async throws {
        var started: [LoopbackServer] = []
        for _ in 0..<3 {
            started.append(try await LoopbackServer.start(Self.slow(.milliseconds(300)) { _ in .json("1") }))
        }
        let servers = started
        var configuration = APIManager.Configuration()
        configuration.maxSessions = 2
        let manager = APIManager(configuration: configuration)
        func call(_ server: LoopbackServer) -> CountUsersAPI {
            let api = CountUsersAPI().using(manager)
            api.options.baseURL = server.baseURL
            return api
        }
        // A slow call on the first session is in flight when two newer sessions push it out.
        let inFlight = Task { try await call(servers[0]).start() }
        try await waitUntil { servers[0].requests.count == 1 }
        _ = try await call(servers[1]).start()
        _ = try await call(servers[2]).start()
        #expect(manager.sessionCount == 2)
        #expect(try await inFlight.value == 1)
        // A new call to the first server opens a new session, pushing out the least recent.
        _ = try await call(servers[0]).start()
        #expect(manager.sessionCount == 2)
        await manager.shutdown()
    }

    @Test("Stubs answer from manifest samples or test stubs, through the interceptors, with no server")
    func stubs() async throws {
        let seen = NIOLockedValueBox<[String]>([])
        var configuration = APIManager.Configuration()
        var stubs = StubSet(usesManifestSamples: true)
        stubs.stub("CountUsers", with: StubResponse(json: "99"))
        stubs.stub("GetUser") { request in
            request.url!.path.hasSuffix("/404") ? StubResponse(status: 404) : StubResponse(json: #"{"id": 1, "name": "Stub", "role": "guest", "tags": [], "created_at": "2024-01-01T00:00:00Z"}"#)
        }
        configuration.stubs = stubs
        configuration.interceptors = [RecordingInterceptor(name: "Log", seen: seen)]
        configuration.baseURLOverrides = ["https://api.example.com/v1": "http://127.0.0.1:1"]
        let manager = APIManager(configuration: configuration)
        #expect(try await CountUsersAPI().using(manager).start() == 99)
        #expect(try await GetUserAPI(id: 1).using(manager).start().name == "Stub")
        #expect(await expectAPIError { try await GetUserAPI(id: 404).using(manager).start() }?.reason == .httpStatus(code: 404, body: Data()))
        #expect(seen.withLockedValue { $0 }.filter { $0.hasPrefix("Log>") } == ["Log>rest:CountUsers#1", "Log>rest:GetUser#1", "Log>rest:GetUser#1"])
        #expect(manager.sessionCount == 0)
        await manager.shutdown()

        // Manifest samples alone: GetUser declares one.
        var samplesOnly = APIManager.Configuration()
        samplesOnly.stubs = StubSet(usesManifestSamples: true)
        let previews = APIManager(configuration: samplesOnly)
        #expect(try await GetUserAPI(id: 7).using(previews).start().name == "Sample User")
        // A JSON-RPC sample is the result, in an envelope with the call's id.
        #expect(try await SubtractAPI(minuend: 1, subtrahend: 1).using(previews).start() == 19)
        await previews.shutdown()
    }

    @Test("APIBatch: collect-all gives every call its result; fail-fast cancels the rest; chain feeds one call the last's result")
    func batchAndChain() async throws {
        try await withServer({ request in
            switch request.path {
            case "/v1/users/404": return .json("{}", status: .notFound)
            case "/v1/users/count": try await Task.sleep(for: .seconds(6)); return .json("4")
            case "/v1/jsonrpc": return JSONRPCServer.handle(request)
            case "/v1/users": return .json(Self.page)
            default: return .json(Samples.userJSON)
            }
        }) { server, manager in
            let all = APIBatch(policy: .collectAll)
            let user = all.add(GetUserAPI(id: 7).using(manager))
            let missing = all.add(GetUserAPI(id: 404).using(manager))
            let sum = all.add(SumAPI(a: 1, b: 2, c: 3).using(manager))
            #expect(await expectAPIError { try await all.run() }?.reason == .httpStatus(code: 404, body: Data("{}".utf8)))
            #expect(try user.get().id == 7)
            #expect(try sum.get() == 6)
            #expect(missing.result.failureValue?.api == "GetUser")

            // The failing call is added first, so that it is sent first: FoundationNetworking may
            // queue a second request to a host behind the first one's connection, and then the
            // 404 would come only after the slow reply, whatever the batch does.
            let fast = APIBatch(policy: .failFast)
            fast.add(GetUserAPI(id: 404).using(manager))
            let slowCount = fast.add(CountUsersAPI().using(manager))
            let clock = ContinuousClock()
            let start = clock.now
            _ = await expectAPIError { try await fast.run() }
            // Well before the slow reply's 6 s, with room for a loaded machine's slow requests.
            #expect(clock.now - start < .seconds(4))
            #expect(slowCount.result.failureValue?.reason == .cancelled)

            let page = try await GetUserAPI(id: 7).using(manager).then { user in ListUsersAPI(role: user.role) }
            #expect(page.total == 3)
            #expect(server.requests.last?.target == "/v1/users?role=admin")
        }
    }

    @Test("Cancellation races: calls cancelled at every moment leave nothing behind")
    func cancellationRaces() async throws {
        try await withServer(Self.slow(.milliseconds(20)) { _ in .json(Self.page) }) { _, manager in
            // One call that completes opens the session the races then share.
            _ = try await ListUsersAPI(limit: 1).using(manager).start()
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let task = Task {
                            index % 2 == 0
                                ? try await ListUsersAPI(limit: index % 5).using(manager).start().total
                                : try await DeleteUserAPI(id: index % 7).using(manager).start() == NoContent() ? 0 : 1
                        }
                        try? await Task.sleep(for: .microseconds(index * 150))
                        task.cancel()
                        _ = await task.result
                    }
                }
            }
            #expect(manager.inFlightCount == 0)
            #expect(manager.sessionCount == 1)
        }
    }
}
