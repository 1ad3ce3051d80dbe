/// The first stage of a call: its frequency policy. A call identical to one in flight fails at
/// once (`reject`) or waits for that call's outcome (`coalesce`); any other call goes on.
struct DuplicateGate: Sendable {
    let inFlight = InFlightRequests()
    /// The message of the error a rejected call gets.
    let message: String

    /// Runs `exchange` for `plan` as its policy says.
    func run(
        _ plan: CallPlan,
        exchange: @escaping @Sendable (CallPlan) async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        switch plan.duplicates {
        case .allow:
            return try await exchange(plan)
        case .reject(let identity):
            switch inFlight.admit(identity, coalescing: false) {
            case .leader(let shared):
                let outcome = await Result { () async throws(APIError) in try await exchange(plan) }
                inFlight.finish(identity, shared, with: outcome)
                return try outcome.get()
            case .follower, .rejected:
                throw APIError(api: plan.request.api, reason: .duplicateRequest(message: message))
            }
        case .coalesce(let identity):
            switch inFlight.admit(identity, coalescing: true) {
            case .leader(let shared):
                lead(shared, identity: identity, plan: plan, exchange: exchange)
                return try await join(shared, plan: plan, exchange: exchange)
            case .follower(let shared):
                return try await join(shared, plan: plan, exchange: exchange)
            case .rejected:
                throw APIError(api: plan.request.api, reason: .duplicateRequest(message: message))
            }
        }
    }

    /// Starts the shared call in a task of its own, so that cancelling the caller who started it
    /// does not cancel the others waiting for it. It has no deadline of its own: each waiter waits
    /// within its own, and once the last has gone (the one with the latest deadline, at the
    /// latest) the call is cancelled as abandoned. Every waiter's progress handler hears it.
    private func lead(
        _ shared: SharedCall, identity: String, plan: CallPlan,
        exchange: @escaping @Sendable (CallPlan) async throws(APIError) -> APIResponse
    ) {
        let work = Task { [inFlight] in
            let outcome = await ProgressReporter.$current.withValue(ProgressReporter(shared.report)) {
                await Result { () async throws(APIError) in try await exchange(plan) }
            }
            inFlight.finish(identity, shared, with: outcome)
        }
        shared.cancelWhenAbandoned(work) { [inFlight] in inFlight.abandon(identity, shared) }
    }

    /// Waits for a shared call's outcome. A caller is counted once it waits, so the others may all
    /// leave before it is, and the call is then cancelled as abandoned: a caller that is not
    /// cancelled itself starts the call afresh instead of taking that cancellation for its own.
    private func join(
        _ shared: SharedCall, plan: CallPlan,
        exchange: @escaping @Sendable (CallPlan) async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        let outcome = await shared.wait(api: plan.request.api, progress: ProgressReporter.current)
        if case .failure(let error) = outcome, error.reason == .cancelled, shared.wasAbandoned, !Task.isCancelled {
            return try await run(plan, exchange: exchange)
        }
        return try outcome.get()
    }
}
