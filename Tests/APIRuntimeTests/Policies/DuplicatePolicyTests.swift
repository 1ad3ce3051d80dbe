@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import Testing

/// The duplicate gate's policies on a manual clock, a scripted transport answering after a pause:
/// identical calls merged, refused, or each sent. The same against a real server is in
/// `APIWireTests/CoalescingTests.swift`.
@Suite("Identical calls in flight, without sockets")
struct DuplicatePolicyTests {
    static let defaults = APIDefaults(baseURL: "https://api.example.com/v1", timeout: .seconds(30))

    static func count(_ frequency: FrequencyPolicy) -> BaseAPI<Int> {
        BaseAPI(definition: APIDefinition(name: "CountUsers", wire: .http(.get, path: "/users/count"), frequency: frequency, defaults: defaults), response: .json)
    }

    /// Runs `body` with a manager whose transport answers its `n`th request with `n` after a
    /// second on the manual clock, and a way to read how many requests it got.
    static func withSlowServer(body: (APIManager, ManualClock, @escaping @Sendable () -> Int) async throws -> Void) async throws {
        let clock = ManualClock()
        let requests = NIOLockedValueBox(0)
        try await withScriptedManager(clock: clock, respond: { _ in
            let n = requests.withLockedValue { $0 += 1; return $0 }
            try await clock.sleep(for: .seconds(1))
            return (.status(.ok), Data("\(n)".utf8))
        }) { manager in
            try await body(manager, clock) { requests.withLockedValue { $0 } }
        }
    }

    @Test("coalesce: identical calls while one is in flight share its one request and its reply")
    func coalesce() async throws {
        try await Self.withSlowServer { manager, clock, requests in
            let leader = Task { try await Self.count(.coalesce).using(manager).start() }
            try await waitUntil { requests() == 1 }
            let followers = (0..<3).map { _ in Task { try await Self.count(.coalesce).using(manager).start() } }
            // The caller who leads waits for the shared call too.
            try await waitUntil { manager.coalescedWaiterCount == 4 }
            clock.advance(by: .seconds(1))
            #expect(try await leader.value == 1)
            for follower in followers { #expect(try await follower.value == 1) }
            #expect(requests() == 1)
            #expect(manager.inFlightCount == 0 && manager.coalescedWaiterCount == 0)
            // Once it has ended, the next identical call is sent.
            let next = Task { try await Self.count(.coalesce).using(manager).start() }
            try await waitUntil { requests() == 2 }
            clock.advance(by: .seconds(1))
            #expect(try await next.value == 2)
        }
    }

    @Test("coalesce: a follower that walks away ends at once; the leader and the other followers still get the reply")
    func followerLeaves() async throws {
        try await Self.withSlowServer { manager, clock, requests in
            let leader = Task { try await Self.count(.coalesce).using(manager).start() }
            try await waitUntil { requests() == 1 }
            let leaving = Task { try await Self.count(.coalesce).using(manager).start() }
            let staying = Task { try await Self.count(.coalesce).using(manager).start() }
            try await waitUntil { manager.coalescedWaiterCount == 3 }
            leaving.cancel()
            #expect(await expectAPIError { try await leaving.value }?.reason == .cancelled)
            clock.advance(by: .seconds(1))
            #expect(try await leader.value == 1)
            #expect(try await staying.value == 1)
            #expect(requests() == 1)
        }
    }

    @Test("reject: an identical call while one is in flight fails at once, naming the API; allow: each is sent")
    func rejectAndAllow() async throws {
        try await Self.withSlowServer { manager, clock, requests in
            let first = Task { try await Self.count(.reject).using(manager).start() }
            try await waitUntil { requests() == 1 }
            let refused = await expectAPIError { try await Self.count(.reject).using(manager).start() }
            #expect(refused?.api == "CountUsers")
            guard case .duplicateRequest = refused?.reason else {
                Issue.record("expected a duplicate request, got \(String(describing: refused?.reason))")
                return
            }
            clock.advance(by: .seconds(1))
            #expect(try await first.value == 1)

            let both = (0..<2).map { _ in Task { try await Self.count(.allow).using(manager).start() } }
            try await waitUntil { requests() == 3 }
            clock.advance(by: .seconds(1))
            #expect(Set([try await both[0].value, try await both[1].value]) == [2, 3])
        }
    }
}
