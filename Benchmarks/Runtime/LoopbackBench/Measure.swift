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
    let side = ProcessInfo.processInfo.environment["LOOPBACK_SIDE"]
    let sides = [(arm: ours, runs: side != "peer"), (arm: peer, runs: side != "ours")]
    for (arm, runs) in sides where runs { _ = try await run(arm, calls: min(calls, 500), width: width) }
    var results: [[Round]] = [[], []]
    for _ in 0..<rounds {
        for (index, (arm, runs)) in sides.enumerated() where runs {
            results[index].append(try await run(arm, calls: calls, width: width))
        }
    }
    let medians = results.map { rounds in
        rounds.isEmpty ? (callsPerSecond: 0.0, cpu: 0.0) : (median(rounds.map(\.callsPerSecond)), median(rounds.map(\.cpuMicrosecondsPerCall)))
    }
    return Comparison(name: name, width: width, ours: medians[0], peer: medians[1])
}
