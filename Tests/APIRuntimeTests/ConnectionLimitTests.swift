import APIRuntime
import ExampleClient
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing

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
        configure: @escaping (inout APIManager.Configuration) -> Void
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
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await CountUsersAPI().using(manager).start() }
                }
                try await group.waitForAll()
            }
            #expect(server.requests.count == 12)
            return counters.withLockedValue { $0.peak }
        }
    }

    @Test("The workspace default (5) caps the connections one session opens to a host")
    func workspaceDefault() async throws {
        #expect(try await peakConcurrency(expected: 5) { _ in } == 5)
    }

    @Test("The manager's setting overrides the workspace's")
    func managerOverride() async throws {
        #expect(try await peakConcurrency(expected: 2) { $0.maxConnectionsPerHost = 2 } == 2)
    }
}
