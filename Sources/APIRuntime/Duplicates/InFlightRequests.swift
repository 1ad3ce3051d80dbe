import Foundation
import NIOConcurrencyHelpers

/// The calls on the wire right now under the `reject` and `coalesce` policies, by identity.
///
/// Entries live in a plain dictionary, not an evictable cache: an entry leaves only when its
/// call ends, whatever the outcome (success, error, timeout, cancellation).
final class InFlightRequests: Sendable {
    private let calls = NIOLockedValueBox<[DuplicateKey: SharedCall]>([:])

    enum Admission {
        /// No identical call is in flight: this one goes out, and `finish` must follow.
        case leader(SharedCall)
        /// An identical call is in flight (and the policy coalesces): wait for its outcome.
        case follower(SharedCall)
        /// An identical call is in flight (and the policy rejects).
        case rejected
    }

    func admit(_ identity: DuplicateKey, coalescing: Bool) -> Admission {
        calls.withLockedValue { calls in
            if let existing = calls[identity] {
                return coalescing ? .follower(existing) : .rejected
            }
            let call = SharedCall()
            calls[identity] = call
            return .leader(call)
        }
    }

    /// Removes the entry of a call nobody waits for any more, so that the table holds only calls
    /// someone still wants; the call itself ends in the background.
    func abandon(_ identity: DuplicateKey, _ call: SharedCall) {
        calls.withLockedValue { calls in
            if calls[identity] === call { calls[identity] = nil }
        }
    }

    /// Ends the leader's call: its outcome goes to every follower, and the entry leaves.
    func finish(_ identity: DuplicateKey, _ call: SharedCall, with outcome: Result<AnsweredRequest, APIError>) {
        calls.withLockedValue { calls in
            if calls[identity] === call { calls[identity] = nil }
        }
        call.complete(with: outcome)
    }

    var count: Int { calls.withLockedValue { $0.count } }

    /// Callers waiting on shared calls right now, for tests.
    var waiterCount: Int { calls.withLockedValue { $0.values.reduce(0) { $0 + $1.waiterCount } } }
}

/// One call's outcome, awaited by any number of followers; a follower that is cancelled stops
/// waiting without disturbing the others or the call itself.
final class SharedCall: Sendable {
    private struct State {
        var outcome: Result<AnsweredRequest, APIError>?
        var waiters: [UInt64: CheckedContinuation<Result<AnsweredRequest, APIError>, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Waiters that have arrived and not left; the work stops when it drops to zero.
        var present = 0
        var work: Task<Void, Never>?
        var onAbandon: (@Sendable () -> Void)?
        /// Set when every waiter left and the work was cancelled: a caller arriving later must
        /// not inherit that cancellation.
        var abandoned = false
        /// The progress handlers of the callers waiting, which hear the shared transfer.
        var listeners: [UInt64: ProgressReporter] = [:]
    }

    /// Guards the outcome and the waiting followers.
    private let state = NIOLockedValueBox(State())

    func complete(with outcome: Result<AnsweredRequest, APIError>) {
        let waiters = state.withLockedValue { state in
            state.outcome = outcome
            // The abandon handler captures this call, so keeping it would keep the call alive for
            // ever, and with it the handle of its work's task and that task's memory.
            state.work = nil
            state.onAbandon = nil
            state.listeners = [:]
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Cancels `work`, and calls `onAbandon`, once every waiter has been cancelled: nobody wants
    /// the outcome any more.
    func cancelWhenAbandoned(_ work: Task<Void, Never>, onAbandon: @escaping @Sendable () -> Void) {
        let abandoned = state.withLockedValue { state in
            // A call already complete needs no cancelling, and keeping the handler would keep it.
            guard state.outcome == nil else { return false }
            state.work = work
            state.onAbandon = onAbandon
            state.abandoned = state.present == 0 && state.nextWaiter > 0
            return state.abandoned
        }
        if abandoned {
            onAbandon()
            work.cancel()
        }
    }

    var wasAbandoned: Bool { state.withLockedValue { $0.abandoned } }
    var waiterCount: Int { state.withLockedValue { $0.outcome == nil ? $0.present : 0 } }

    /// Tells every waiter with a progress handler how far the shared transfer has got.
    func report(_ progress: TransferProgress) {
        let listeners = state.withLockedValue { Array($0.listeners.values) }
        for listener in listeners { listener.report(progress) }
    }

    /// Waits for the outcome; `progress`, the waiter's handler, hears the transfer meanwhile.
    func wait(api: String, progress: ProgressReporter?) async -> Result<AnsweredRequest, APIError> {
        let id = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            state.present += 1
            if let progress { state.listeners[state.nextWaiter] = progress }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Result<AnsweredRequest, APIError>? = state.withLockedValue { state in
                    if let outcome = state.outcome { return outcome }
                    if Task.isCancelled { return .failure(APIError(api: api, reason: .cancelled)) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: { [state] in
            let (waiter, abandonedWork, onAbandon) = state.withLockedValue { state in
                state.present -= 1
                state.listeners[id] = nil
                let abandoned = state.present == 0 && state.outcome == nil && state.work != nil
                if abandoned { state.abandoned = true }
                return (state.waiters.removeValue(forKey: id), abandoned ? state.work : nil, abandoned ? state.onAbandon : nil)
            }
            waiter?.resume(returning: .failure(APIError(api: api, reason: .cancelled)))
            onAbandon?()
            abandonedWork?.cancel()
        }
    }
}
