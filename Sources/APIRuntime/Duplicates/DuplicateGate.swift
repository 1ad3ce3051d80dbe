/// The first stage of a call: its frequency policy. A call identical to one in flight fails at
/// once (`reject`) or waits for that call's outcome (`coalesce`); any other call goes on.
struct DuplicateGate: Sendable {
    let inFlight = InFlightRequests()
    /// The message of the error a rejected call gets.
    let message: String

    /// What runs the call once the gate lets it through: the attempts, from `first`.
    typealias Send = @Sendable (_ plan: CallPlan, _ first: OutgoingRequest) async throws(APIError) -> AnsweredRequest

    /// Runs `exchange` for `plan`, whose first attempt sends `first`, as its policy says. Calls
    /// are identical when their requests as sent are: the same identity, account and credentials.
    func run(_ plan: CallPlan, _ first: OutgoingRequest, exchange: @escaping Send) async throws(APIError) -> AnsweredRequest {
        switch plan.duplicates {
        case .allow:
            return try await exchange(plan, first)
        case .reject:
            let identity = first.duplicateKey
            switch inFlight.admit(identity, coalescing: false) {
            case .leader(let shared):
                let outcome = await Result { () async throws(APIError) in try await exchange(plan, first) }
                inFlight.finish(identity, shared, with: outcome)
                return try outcome.get()
            case .follower, .rejected:
                throw APIError(api: plan.request.api, reason: .duplicateRequest(message: message))
            }
        case .coalesce:
            let identity = first.duplicateKey
            switch inFlight.admit(identity, coalescing: true) {
            case .leader(let shared):
                lead(shared, identity: identity, plan: plan, first: first, exchange: exchange)
                return try await join(shared, plan: plan, first: first, leads: true, exchange: exchange)
            case .follower(let shared):
                return try await join(shared, plan: plan, first: first, leads: false, exchange: exchange)
            case .rejected:
                throw APIError(api: plan.request.api, reason: .duplicateRequest(message: message))
            }
        }
    }

    /// Starts the shared call in a task of its own, so that cancelling the caller who started it
    /// does not cancel the others waiting for it. It has no deadline of its own: each waiter waits
    /// within its own, and once the last has gone (the one with the latest deadline, at the
    /// latest) the call is cancelled as abandoned. Every waiter's progress handler hears it.
    private func lead(_ shared: SharedCall, identity: DuplicateKey, plan: CallPlan, first: OutgoingRequest, exchange: @escaping Send) {
        let work = Task { [inFlight] in
            let outcome = await ProgressReporter.$current.withValue(ProgressReporter(shared.report)) {
                await Result { () async throws(APIError) in try await exchange(plan, first) }
            }
            inFlight.finish(identity, shared, with: outcome)
        }
        shared.cancelWhenAbandoned(work) { [inFlight] in inFlight.abandon(identity, shared) }
    }

    /// Waits for a shared call's outcome. A caller is counted once it waits, so the others may all
    /// leave before it is, and the call is then cancelled as abandoned: a caller that is not
    /// cancelled itself starts the call afresh instead of taking that cancellation for its own.
    ///
    /// A reply whose last attempt carried other credentials than the first (a token added after a
    /// challenge, or refreshed) is the reply of whoever those credentials belong to, which a waiter
    /// other than the one who `leads` the call cannot tell is itself: it sends the call on its own.
    private func join(
        _ shared: SharedCall, plan: CallPlan, first: OutgoingRequest, leads: Bool, exchange: @escaping Send
    ) async throws(APIError) -> AnsweredRequest {
        let outcome = await shared.wait(api: plan.request.api, progress: ProgressReporter.current)
        switch outcome {
        case .failure(let error) where error.reason == .cancelled && shared.wasAbandoned && !Task.isCancelled:
            return try await run(plan, first, exchange: exchange)
        case .success(let answered) where !leads && !answered.request.isSameCaller(as: first):
            return try await exchange(plan, first)
        default:
            return try outcome.get()
        }
    }
}
