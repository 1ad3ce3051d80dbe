import NIOConcurrencyHelpers

/// One timer for every call deadline of a manager: when a deadline passes, it runs that call's
/// expiry, which cancels the call's task.
///
/// A sleeping task raced against each call would cost every call two more tasks and a timer, and
/// a cancelled sleep keeps its timer until the time it was set for. Here a call only adds and
/// removes an entry; alarms are set only when a deadline comes before every alarm already set,
/// so calls with the same timeout share one.
final class DeadlineTimer: Sendable {
    private struct Expiry {
        var deadline: ContinuousClock.Instant
        var expire: @Sendable () -> Void
    }

    private struct State {
        var expiries: [UInt64: Expiry] = [:]
        var nextID: UInt64 = 0
        /// When the alarms set and not yet rung will ring.
        var alarms: [ContinuousClock.Instant] = []

        /// Records an alarm for `deadline` unless one rings by then already; true when the caller
        /// must set it.
        mutating func needsAlarm(by deadline: ContinuousClock.Instant) -> Bool {
            guard !alarms.contains(where: { $0 <= deadline }) else { return false }
            alarms.append(deadline)
            return true
        }
    }

    /// Guards the pending expiries and the alarms set.
    private let state = NIOLockedValueBox(State())
    private let clock: any APIClock

    init(clock: any APIClock) {
        self.clock = clock
    }

    /// Runs `expire` once `deadline` has passed, unless `remove` comes first.
    func schedule(_ deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, setAlarm) = state.withLockedValue { state in
            defer { state.nextID += 1 }
            state.expiries[state.nextID] = Expiry(deadline: deadline, expire: expire)
            return (state.nextID, state.needsAlarm(by: deadline))
        }
        if setAlarm { alarm(at: deadline) }
        return id
    }

    func remove(_ id: UInt64) {
        _ = state.withLockedValue { $0.expiries.removeValue(forKey: id) }
    }

    private func alarm(at instant: ContinuousClock.Instant) {
        Task { [clock] in
            // Never cancelled: an alarm that finds nothing due sets the next one, if any.
            try? await clock.sleep(until: instant)
            ring(instant)
        }
    }

    private func ring(_ alarm: ContinuousClock.Instant) {
        let now = clock.now
        let (due, next) = state.withLockedValue { state -> ([Expiry], ContinuousClock.Instant?) in
            if let rung = state.alarms.firstIndex(of: alarm) { state.alarms.remove(at: rung) }
            let dueIDs = state.expiries.filter { $0.value.deadline <= now }.map(\.key)
            let due = dueIDs.compactMap { state.expiries.removeValue(forKey: $0) }
            guard let earliest = state.expiries.values.map(\.deadline).min(), state.needsAlarm(by: earliest) else {
                return (due, nil)
            }
            return (due, earliest)
        }
        for expiry in due { expiry.expire() }
        if let next { self.alarm(at: next) }
    }
}
