import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// Timeouts, cancellation, connection errors, the frequency policy, callbacks and overrides,
/// against real loopback servers.
@Suite("Call control on a loopback server")
struct CallControlTests {
    /// A server that answers only after `delay`: long enough for a timeout or a cancel to land first.
    static func slow(_ delay: Duration) -> LoopbackServer.Handler {
        { _ in
            try await Task.sleep(for: delay)
            return .json("1")
        }
    }

    @Test("A call slower than its timeout fails with .timeout, well before the server answers")
    func timeout() async throws {
        // The server answers after 20 s; under ThreadSanitizer on a loaded machine NIO's timers
        // fire seconds late, so "well before" is 10 s, still half the server's time.
        try await withServer(Self.slow(.seconds(20))) { _, manager in
            let api = CountUsersAPI().using(manager)
            api.options.timeout = .milliseconds(200)
            let clock = ContinuousClock()
            let start = clock.now
            let error = try #require(await expectAPIError { try await api.start() })
            #expect(error.reason == .timeout(.milliseconds(200)))
            #expect(error.api == "CountUsers")
            #expect(clock.now - start < .seconds(10))
        }
    }

    @Test("Cancelling the calling task cancels the wire request")
    func taskCancellation() async throws {
        // The server answers after 20 s, and the call must end well before: within 10 s, as the
        // cancelling reaches the wire at once but a full parallel run on two cores can hold the
        // cooperative pool's threads for seconds.
        try await withServer(Self.slow(.seconds(20))) { server, manager in
            let task = Task { try await CountUsersAPI().using(manager).start() }
            try await waitUntil { server.requests.count == 1 }
            let clock = ContinuousClock()
            let start = clock.now
            task.cancel()
            let error = await expectAPIError { try await task.value }
            #expect(clock.now - start < .seconds(10))
            #expect(error?.reason == .cancelled)
        }
    }

    @Test("cancel() on the instance cancels its call in flight")
    func instanceCancel() async throws {
        try await withServer(Self.slow(.seconds(3))) { server, manager in
            let api = CountUsersAPI().using(manager)
            async let outcome = expectAPIError { try await api.start() }
            try await waitUntil { server.requests.count == 1 }
            api.cancel()
            let error = await outcome
            #expect(error?.reason == .cancelled)
        }
    }

    @Test("A refused connection is a transport error naming the API")
    func connectionRefused() async throws {
        // Port 1 on loopback: nothing listens there. (A port freed by a stopped test server could
        // be handed to another test's server running in parallel, and the call would reach it.)
        var configuration = APIManager.Configuration()
        configuration.baseURLOverrides = ["https://api.example.com/v1": "http://127.0.0.1:1"]
        configuration.connectTimeout = .milliseconds(300)
        let manager = APIManager(configuration: configuration)
        let error = try #require(await expectAPIError { try await CountUsersAPI().using(manager).start() })
        await manager.shutdown()
        #expect(error.api == "CountUsers")
        guard case .transport = error.reason else {
            Issue.record("expected a transport error, got \(error)")
            return
        }
    }

    @Test("frequency: reject fails an identical call in flight at once; exactly one reaches the server")
    func rejectDuplicate() async throws {
        try await withServer({ _ in
            try await Task.sleep(for: .milliseconds(500))
            return Response(status: .noContent)
        }) { server, manager in
            async let first: NoContent = DeleteUserAPI(id: 5).using(manager).start()
            try await waitUntil { manager.inFlightCount == 1 }
            let second = await expectAPIError { try await DeleteUserAPI(id: 5).using(manager).start() }
            #expect(second?.reason == .duplicateRequest(message: "an identical request is already in flight"))
            #expect(second?.api == "DeleteUser")
            // A call that differs (another id) is not a duplicate.
            _ = try await DeleteUserAPI(id: 6).using(manager).start()
            let firstResult = try await first
            #expect(firstResult == NoContent())
            #expect(server.requests.map(\.target).sorted() == ["/v1/users/5", "/v1/users/6"])
            #expect(manager.inFlightCount == 0)
        }
    }

    @Test("The in-flight table empties after errors and timeouts too")
    func inFlightEmptiesOnFailure() async throws {
        try await withServer(Self.slow(.seconds(2))) { _, manager in
            let api = DeleteUserAPI(id: 1).using(manager)
            api.options.timeout = .milliseconds(100)
            #expect(await expectAPIError { try await api.start() }?.reason == .timeout(.milliseconds(100)))
            #expect(manager.inFlightCount == 0)
        }
        try await withServer({ _ in Response(status: .internalServerError) }) { _, manager in
            let error = await expectAPIError { try await DeleteUserAPI(id: 1).using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 500, body: Data()))
            #expect(manager.inFlightCount == 0)
        }
    }

    @Test("start(completion:) delivers the result once")
    func completionHandler() async throws {
        try await withServer({ _ in .json("12") }) { _, manager in
            let result = await withCheckedContinuation { continuation in
                CountUsersAPI().using(manager).start { continuation.resume(returning: $0) }
            }
            let count = try result.get()
            #expect(count == 12)
        }
    }

    @Test("Instance overrides replace the base URL, headers and timeout of the manifest")
    func instanceOverrides() async throws {
        try await withServer({ _ in .json("1") }) { server, manager in
            let api = CountUsersAPI().using(manager)
            api.options.baseURL = server.baseURL + "/staging"
            api.options.headers = [(name: "Accept", value: "application/vnd.example+json"), (name: "X-Trace", value: "t1")]
            _ = try await api.start()
            let request = try #require(server.requests.first)
            #expect(request.target == "/staging/users/count")
            #expect(request.headers[.accept] == "application/vnd.example+json")
            #expect(request.headers[HTTPField.Name("X-Trace")!] == "t1")
        }
    }

    @Test("One session per scheme, host and port, however many APIs and calls use it")
    func sessionPerBaseURL() async throws {
        try await withServer(configure: { $0.connectTimeout = .milliseconds(300) }, { request in
            request.path.hasPrefix("/auth") ? .json(#"{"access_token": "t", "token_type": "b", "expires_in": 1, "scopes": {}}"#) : .json("1")
        }) { _, manager in
            for _ in 0..<3 {
                _ = try await CountUsersAPI().using(manager).start()
                _ = try await SignInAPI(grantType: "password", username: "u", password: "p").using(manager).start()
            }
            // The API and auth base URLs both point at 127.0.0.1 and one port: one session serves both.
            #expect(manager.sessionCount == 1)
            let other = CountUsersAPI().using(manager)
            other.options.baseURL = "http://localhost:1"
            _ = try? await other.start()
            #expect(manager.sessionCount == 2)
        }
    }

    @Test("After shutdown, calls fail as cancelled instead of hanging")
    func afterShutdown() async throws {
        let manager = APIManager()
        await manager.shutdown()
        let api = CountUsersAPI().using(manager)
        api.options.baseURL = "http://127.0.0.1:1"
        let error = await expectAPIError { try await api.start() }
        #expect(error?.reason == .cancelled)
        #expect(error?.underlying is ManagerShutDown)
    }
}
