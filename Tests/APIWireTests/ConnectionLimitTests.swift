import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// The max-connections-per-host setting, seen from the server: how many requests it has open at once.
@Suite("Connections per host on a loopback server")
struct ConnectionLimitTests {
    /// Sends 12 concurrent slow calls and returns the most the server ever had in progress together.
    ///
    /// Each handler holds its request until `expected` are in progress together (or 10 s pass), then
    /// 150 ms more: so a busy machine, slow to open the connections, cannot make the peak fall short
    /// of a cap that works, and a cap that is too high still shows as a peak above `expected`.
    func peakConcurrency(
        expected: Int,
        configure: @escaping (inout APIManager.Configuration) -> Void,
        call: @escaping @Sendable (LoopbackServer, APIManager) async throws -> Void = { _, manager in _ = try await CountUsersAPI().using(manager).start() }
    ) async throws -> Int {
        let counters = NIOLockedValueBox((current: 0, peak: 0))
        return try await withServer(configure: configure, { _ in
            counters.withLockedValue { $0.current += 1; $0.peak = max($0.peak, $0.current) }
            let deadline = ContinuousClock.now + .seconds(10)
            while counters.withLockedValue({ $0.peak }) < expected, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .milliseconds(150))
            counters.withLockedValue { $0.current -= 1 }
            return .json("1")
        }) { server, manager in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await call(server, manager) }
                }
                try await group.waitForAll()
            }
            #expect(server.requests.count == 12)
            return counters.withLockedValue { $0.peak }
        }
    }

    @Test("The workspace default (5) caps the connections one session opens to a host")
    func workspaceDefault() async throws {
        #expect(try await peakConcurrency(expected: 5, configure: { _ in }) == 5)
    }

    @Test("The manager's setting caps the sessions of workspaces that set none, and gives way to one that does")
    func managerSetting() async throws {
        // A workspace without `maxConnectionsPerHost`.
        let definition = APIDefinition(name: "Count", method: .get, path: "/users/count", defaults: APIDefaults())
        let peak = try await peakConcurrency(expected: 2, configure: { $0.maxConnectionsPerHost = 2 }) { server, manager in
            let api = BaseAPI(definition: definition, response: .noContent).using(manager)
            api.options.baseURL = server.baseURL
            try await api.start()
        }
        #expect(peak == 2)
        // The example workspace says 5, which wins over the manager's 2.
        #expect(try await peakConcurrency(expected: 5, configure: { $0.maxConnectionsPerHost = 2 }) == 5)
    }

    @Test("The manager's setting for a host wins over the workspace's", arguments: ["127.0.0.1", "127.0.0.1."])
    func hostSetting(host: String) async throws {
        #expect(try await peakConcurrency(expected: 8, configure: { $0.maxConnectionsByHost[host] = 8 }) == 8)
        // Another host's setting leaves the workspace's 5.
        #expect(try await peakConcurrency(expected: 5, configure: { $0.maxConnectionsByHost["localhost"] = 8 }) == 5)
    }
}
