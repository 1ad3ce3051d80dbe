import APIRuntime
import NIOConcurrencyHelpers

/// A clock a test moves by hand: `sleep(until:)` returns only once `advance` has moved `now` to its
/// deadline, so a test of a 30-second deadline takes no time and sees exactly when it fires.
public final class ManualClock: APIClock {
    private struct Sleeper {
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    public let start: ContinuousClock.Instant
    /// Guards the time and the sleepers.
    private let state: NIOLockedValueBox<State>

    public init() {
        let start = ContinuousClock.now
        self.start = start
        self.state = NIOLockedValueBox(State(now: start))
    }

    public var now: ContinuousClock.Instant { state.withLockedValue { $0.now } }

    /// How far the clock has been moved.
    public var elapsed: Duration { now - start }

    /// When the sleepers waiting now will wake, as time since the start, soonest first: what a test
    /// waits for (`waitUntil { clock.pending == [.seconds(30)] }`) before it moves the clock.
    public var pending: [Duration] {
        state.withLockedValue { state in state.sleepers.values.map { $0.deadline - start }.sorted() }
    }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLockedValue { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLockedValue { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration` and wakes every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        let due = state.withLockedValue { state in
            state.now += duration
            let now = state.now
            let ids = state.sleepers.filter { $0.value.deadline <= now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0) }.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
