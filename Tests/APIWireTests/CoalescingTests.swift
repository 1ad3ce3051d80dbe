@testable import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// The `coalesce` policy never merges calls that differ, and each caller keeps its own deadline
/// and progress.
@Suite("Coalesced calls")
struct CoalescingTests {
    /// A coalescing GET of `/v1/sorted` with `query` and `headers`, at `server`.
    static func call(_ server: LoopbackServer, query: [String] = [], headers: [(name: String, value: String)] = []) -> BaseAPI<String> {
        let definition = APIDefinition(name: "Sorted", wire: .http(.get, path: "/v1/sorted"), frequency: .coalesce, defaults: APIDefaults(baseURL: server.baseURL))
        let api = BaseAPI(definition: definition, response: .text, request: RequestBuilder().query("sort", query))
        api.options.headers = headers
        return api
    }

    /// Holds each request until `count` have arrived, or, with `waiters`, until that many callers
    /// wait for one call (or two seconds pass); then echoes its query and its `Authorization`.
    static func holding(until count: Int, waiters: Int? = nil, manager: NIOLockedValueBox<APIManager?>) -> LoopbackServer.Handler {
        let arrived = NIOLockedValueBox(0)
        return { request in
            arrived.withLockedValue { $0 += 1 }
            let deadline = ContinuousClock.now + .seconds(2)
            func ready() -> Bool {
                if let waiters { return manager.withLockedValue { $0 }?.coalescedWaiterCount == waiters }
                return arrived.withLockedValue { $0 } >= count
            }
            while !ready(), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            return .text((request.query ?? "") + " " + (request.headers[.authorization] ?? "-"))
        }
    }

    @Test("Repeated query items in another order are two calls, each with its own reply", arguments: [false, true])
    func repeatedQueryItems(sameOrder: Bool) async throws {
        let managerBox = NIOLockedValueBox<APIManager?>(nil)
        try await withServer(Self.holding(until: 2, waiters: sameOrder ? 2 : nil, manager: managerBox)) { server, manager in
            managerBox.withLockedValue { $0 = manager }
            async let first = Self.call(server, query: ["name", "age"]).using(manager).start()
            async let second = Self.call(server, query: sameOrder ? ["name", "age"] : ["age", "name"]).using(manager).start()
            let replies = try await [first, second]
            if sameOrder {
                #expect(server.requests.count == 1)
                #expect(replies == ["sort=name&sort=age -", "sort=name&sort=age -"])
            } else {
                #expect(server.requests.count == 2)
                #expect(replies == ["sort=name&sort=age -", "sort=age&sort=name -"])
            }
        }
    }

    @Test("Calls with other credentials or other headers of their own are never merged; identical ones are")
    func headers() async throws {
        let managerBox = NIOLockedValueBox<APIManager?>(nil)
        try await withServer(Self.holding(until: 3, manager: managerBox)) { server, manager in
            async let ann = Self.call(server, headers: [("Authorization", "Bearer ann")]).using(manager).start()
            async let bob = Self.call(server, headers: [("Authorization", "Bearer bob")]).using(manager).start()
            async let tenant = Self.call(server, headers: [("Authorization", "Bearer ann"), ("X-Tenant", "b")]).using(manager).start()
            let replies = try await [ann, bob, tenant]
            #expect(replies == [" Bearer ann", " Bearer bob", " Bearer ann"])
            #expect(server.requests.count == 3)
        }
        try await withServer(Self.holding(until: 2, waiters: 2, manager: managerBox)) { server, manager in
            managerBox.withLockedValue { $0 = manager }
            async let first = Self.call(server, headers: [("Authorization", "Bearer ann")]).using(manager).start()
            async let second = Self.call(server, headers: [("Authorization", "Bearer ann")]).using(manager).start()
            let replies = try await [first, second]
            #expect(replies == [" Bearer ann", " Bearer ann"])
            #expect(server.requests.count == 1)
        }
    }

    @Test("Each waiter keeps its own deadline: a follower outlives a leader's shorter one, and one with a shorter deadline fails at its own")
    func deadlines() async throws {
        let clock = ManualClock()
        let requests = NIOLockedValueBox(0)
        try await withScriptedManager(clock: clock, respond: { _ in
            requests.withLockedValue { $0 += 1 }
            try await clock.sleep(for: .seconds(2))
            return (.status(.ok), Data(ManagerPolicyTests.page.utf8))
        }) { manager in
            func list(timeout: Duration) -> Task<UserPage, any Error> {
                let api = ListUsersAPI().using(manager)
                api.options.timeout = timeout
                return Task { try await api.start() }
            }
            // The leader gives up at 1 s; the follower, which waits up to 10 s, gets the reply at 2 s.
            let leader = list(timeout: .seconds(1))
            try await waitUntil { requests.withLockedValue { $0 } == 1 }
            let follower = list(timeout: .seconds(10))
            try await waitUntil { manager.coalescedWaiterCount == 2 && clock.pending == [.seconds(1), .seconds(2)] }
            clock.advance(by: .seconds(1))
            #expect(await expectAPIError { try await leader.value }?.reason == .timeout(.seconds(1)))
            clock.advance(by: .seconds(1))
            let page = try await follower.value
            #expect(page.total == 3)
            #expect(requests.withLockedValue { $0 } == 1)

            // Now a follower that waits less than the leader fails at its own deadline.
            let patient = list(timeout: .seconds(10))
            try await waitUntil { requests.withLockedValue { $0 } == 2 }
            let hasty = list(timeout: .milliseconds(500))
            try await waitUntil { manager.coalescedWaiterCount == 2 && clock.pending.contains(.milliseconds(2500)) }
            clock.advance(by: .milliseconds(500))
            #expect(await expectAPIError { try await hasty.value }?.reason == .timeout(.milliseconds(500)))
            clock.advance(by: .milliseconds(1500))
            let later = try await patient.value
            #expect(later.total == 3)
        }
    }

    @Test("A follower's progress handler hears the shared download")
    func followerProgress() async throws {
        let body = String(repeating: "x", count: 1 << 20)
        let managerBox = NIOLockedValueBox<APIManager?>(nil)
        try await withServer({ request in
            // Answer once both callers wait for this one request.
            try await waitUntil { managerBox.withLockedValue { $0 }?.coalescedWaiterCount == 2 }
            return .text(body)
        }) { server, manager in
            managerBox.withLockedValue { $0 = manager }
            let heard = NIOLockedValueBox<Int64>(0)
            async let leader = Self.call(server).using(manager).start()
            try await waitUntil { server.requests.count == 1 }
            let follower = Self.call(server).using(manager)
            follower.options.progress = { progress in
                if progress.direction == .download { heard.withLockedValue { $0 = max($0, progress.completedBytes) } }
            }
            async let followed = follower.start()
            let replies = try await [leader, followed]
            #expect(replies.allSatisfy { $0.count == body.count })
            #expect(heard.withLockedValue { $0 } == Int64(body.count))
            #expect(server.requests.count == 1)
        }
    }
}
