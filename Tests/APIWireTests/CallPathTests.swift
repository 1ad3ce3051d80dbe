@testable import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

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
            first.options.timeout = .milliseconds(500)
            let timedOut = await expectAPIError { try await first.start() }
            #expect(timedOut?.reason == .timeout(.milliseconds(500)))
            #expect(clock.now - start < .seconds(10))

            let api = CountUsersAPI().using(manager)
            api.options.timeout = .seconds(60)
            start = clock.now
            let call = Task { try await api.start() }
            try await Task.sleep(for: .milliseconds(200))
            api.cancel()
            let error = await expectAPIError { try await call.value }
            #expect(error?.reason == .cancelled)
            #expect(clock.now - start < .seconds(10))
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
            api.options.timeout = .milliseconds(500)
            let clock = ContinuousClock()
            let start = clock.now
            let error = await expectAPIError { try await api.start() }
            #expect(error?.reason == .timeout(.milliseconds(500)))
            #expect(clock.now - start < .seconds(10))
        }
    }
}
