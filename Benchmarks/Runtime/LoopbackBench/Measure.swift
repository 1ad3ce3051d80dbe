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
    /// This process's CPU time and context switches per call (the servers run in another process).
    let cost: CostPerCall
}

/// Hands out call numbers to the workers of a round.
private final class CallNumbers: Sendable {
    private let next = Atomic<Int>(0)
    func take() -> Int { next.add(1, ordering: .relaxed).oldValue }
}

/// Makes `calls` calls, `width` at a time (each worker takes the next number when its call ends).
func run(_ arm: Arm, calls: Int, width: Int) async throws -> Round {
    let numbers = CallNumbers()
    let before = ResourceUse.now()
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
    let use = ResourceUse.now() - before
    return Round(callsPerSecond: Double(calls) / wall, cost: CostPerCall(use: use, calls: calls))
}

/// The medians of a comparison between our side and the peer.
struct Comparison {
    let name: String
    let width: Int
    let ours: Side
    let peer: Side
    /// The median of the rounds' own ratios (each round runs both sides back to back), which a
    /// slow spell of the machine moves less than the ratio of the two medians.
    let ratio: Double
    /// The lowest and highest of the rounds' ratios.
    let spread: (low: Double, high: Double)

    struct Side {
        var callsPerSecond: Double
        /// Medians of the rounds' CPU and switches; allocations from the counting pass.
        var cost: CostPerCall
    }

    var row: String {
        String(
            format: "| %@ | %d | %.0f | %.0f | **%.2f×** | %.2f–%.2f | %.0f / %.0f | %.2f + %.2f / %.2f + %.2f | %.0f / %.0f |",
            name, width, ours.callsPerSecond, peer.callsPerSecond, ratio, spread.low, spread.high,
            ours.cost.cpuMicroseconds, peer.cost.cpuMicroseconds,
            ours.cost.voluntarySwitches, ours.cost.involuntarySwitches, peer.cost.voluntarySwitches, peer.cost.involuntarySwitches,
            ours.cost.allocations, peer.cost.allocations
        )
    }

    static let header = """
        | call | concurrency | manager calls/s | raw client calls/s | ratio (median of rounds) | rounds' ratios | CPU µs a call, manager / raw | context switches a call, voluntary + involuntary, manager / raw | heap allocations a call, manager / raw |
        |---|---:|---:|---:|---:|---:|---:|---:|---:|
        """
}

/// Warms both sides up, then runs `rounds` rounds of both sides back to back, our side first in
/// the first, third, fifth… round and the peer's in the others, so that machine noise and any cost
/// of going first fall on both; then counts each side's allocations in a run of its own.
/// LOOPBACK_SIDE=ours or =peer runs one side only (for profiling); the other reads as zero.
func compare(_ name: String, ours: Arm, peer: Arm, calls: Int, width: Int, rounds: Int) async throws -> Comparison {
    let side = ProcessInfo.processInfo.environment["LOOPBACK_SIDE"]
    let sides = [(arm: ours, runs: side != "peer"), (arm: peer, runs: side != "ours")]
    for (arm, runs) in sides where runs { _ = try await run(arm, calls: min(calls, 500), width: width) }
    var results: [[Round]] = [[], []]
    for round in 0..<rounds {
        for index in round.isMultiple(of: 2) ? [0, 1] : [1, 0] where sides[index].runs {
            results[index].append(try await run(sides[index].arm, calls: calls, width: width))
        }
    }
    var medians: [Comparison.Side] = []
    for (index, rounds) in results.enumerated() {
        guard !rounds.isEmpty else {
            medians.append(Comparison.Side(callsPerSecond: 0, cost: CostPerCall.zero))
            continue
        }
        let counted = min(calls, 1_000)
        let allocations = try await Allocations.counting { _ = try await run(sides[index].arm, calls: counted, width: width) }
        let cost = CostPerCall.median(rounds.map(\.cost)).adding(allocations, calls: counted)
        medians.append(Comparison.Side(callsPerSecond: median(rounds.map(\.callsPerSecond)), cost: cost))
    }
    let ratios = zip(results[0], results[1]).map { $0.callsPerSecond / $1.callsPerSecond }
    return Comparison(
        name: name, width: width, ours: medians[0], peer: medians[1],
        ratio: ratios.isEmpty ? 0 : median(ratios), spread: (ratios.min() ?? 0, ratios.max() ?? 0)
    )
}
