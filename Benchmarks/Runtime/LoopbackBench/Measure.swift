import BenchSupport
import Foundation
import Synchronization

/// One side of a comparison: call number `i` (distinct numbers make distinct requests, so the
/// manager's `frequency: reject` lets concurrent calls through), which checks its own answer.
struct Arm: Sendable {
    let name: String
    let call: @Sendable (Int) async throws -> Void
}

/// A call that came back with the wrong answer: the benchmark stops rather than report it.
struct WrongAnswer: Error, CustomStringConvertible {
    let description: String
}

/// What one round of calls cost.
struct Round {
    let callsPerSecond: Double
    /// This process's CPU time per call (the servers run in another process).
    let cpuMicrosecondsPerCall: Double
}

/// Hands out call numbers to the workers of a round.
private final class CallNumbers: Sendable {
    private let next = Atomic<Int>(0)
    func take() -> Int { next.add(1, ordering: .relaxed).oldValue }
}

/// Makes `calls` calls, `width` at a time (each worker takes the next number when its call ends).
func run(_ arm: Arm, calls: Int, width: Int) async throws -> Round {
    let numbers = CallNumbers()
    let cpuBefore = processCPUSeconds()
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<width {
            group.addTask {
                while case let number = numbers.take(), number < calls {
                    try await arm.call(number)
                }
            }
        }
        try await group.waitForAll()
    }
    let wall = (ContinuousClock.now - start).seconds
    let cpu = processCPUSeconds() - cpuBefore
    return Round(callsPerSecond: Double(calls) / wall, cpuMicrosecondsPerCall: cpu / Double(calls) * 1e6)
}

/// The medians of a comparison between our side and the peer.
struct Comparison {
    let name: String
    let width: Int
    let ours: (callsPerSecond: Double, cpu: Double)
    let peer: (callsPerSecond: Double, cpu: Double)
    var ratio: Double { ours.callsPerSecond / peer.callsPerSecond }

    var row: String {
        String(format: "| %@ | %d | %.0f | %.0f | **%.2f×** | %.0f | %.0f |",
               name, width, ours.callsPerSecond, peer.callsPerSecond, ratio, ours.cpu, peer.cpu)
    }
}

/// Warms both sides up, then alternates rounds between them so that machine noise falls on both.
/// LOOPBACK_SIDE=ours or =peer runs one side only (for profiling); the other reads as zero.
func compare(_ name: String, ours: Arm, peer: Arm, calls: Int, width: Int, rounds: Int) async throws -> Comparison {
    if let side = ProcessInfo.processInfo.environment["LOOPBACK_SIDE"] {
        let arm = side == "ours" ? ours : peer
        let rounds = try await (0..<rounds).asyncMap { _ in try await run(arm, calls: calls, width: width) }
        let medians = (median(rounds.map(\.callsPerSecond)), median(rounds.map(\.cpuMicrosecondsPerCall)))
        return Comparison(name: name, width: width, ours: side == "ours" ? medians : (0, 0), peer: side == "ours" ? (0, 0) : medians)
    }
    _ = try await run(ours, calls: min(calls, 500), width: width)
    _ = try await run(peer, calls: min(calls, 500), width: width)
    var oursRounds: [Round] = []
    var peerRounds: [Round] = []
    for _ in 0..<rounds {
        oursRounds.append(try await run(ours, calls: calls, width: width))
        peerRounds.append(try await run(peer, calls: calls, width: width))
    }
    return Comparison(
        name: name, width: width,
        ours: (median(oursRounds.map(\.callsPerSecond)), median(oursRounds.map(\.cpuMicrosecondsPerCall))),
        peer: (median(peerRounds.map(\.callsPerSecond)), median(peerRounds.map(\.cpuMicrosecondsPerCall)))
    )
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
