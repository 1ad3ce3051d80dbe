/// The time a manager reads and waits on: call deadlines, rate limits, retry pauses, stub delays
/// and the grace period of `shutdown`. `SystemClock` unless the configuration names another;
/// tests give a clock they move by hand, so that a 30-second deadline passes at once and exactly.
///
/// Instants are `ContinuousClock`'s: the deadline a call passes on (gRPC's `grpc-timeout`) is the
/// time left on this clock.
public protocol APIClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }
    /// Returns once `now` has reached `deadline`; throws when the waiting task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension APIClock {
    /// Waits `duration` (at most a century, never below zero).
    func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration.clampedForWaiting)
    }

    /// `duration` from now, clamped for waiting.
    func after(_ duration: Duration) -> ContinuousClock.Instant {
        now + duration.clampedForWaiting
    }
}

/// The system's continuous clock, which keeps counting while the device sleeps.
public struct SystemClock: APIClock {
    /// The system's clock.
    public init() {}

    /// `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { .now }

    /// Sleeps on the continuous clock until `deadline`.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }
}
