/// The attempts of a call: one, then more as its retry policy allows, each through `attempt`
/// (the rate limit, the interceptors and the transport), until one is worth keeping or the next
/// would start past the call's deadline.
struct AttemptLoop: Sendable {
    let clock: any APIClock

    func run(
        _ plan: CallPlan,
        attempt: (APIRequest, APICallContext) async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        let policy = plan.retry
        var context = plan.context
        var random = SystemRandomNumberGenerator()
        while true {
            let outcome = await Result { () async throws(APIError) in try await attempt(plan.request, context) }
            guard context.attempt < policy.maxAttempts, policy.isRetryable(outcome) else {
                return try outcome.get()
            }
            let pause = policy.delay(after: context.attempt, response: try? outcome.get(), random: &random)
            guard clock.after(pause) < plan.deadline else { return try outcome.get() }
            do {
                try await clock.sleep(for: pause)
            } catch {
                throw APIError(api: plan.request.api, reason: .cancelled, underlying: error)
            }
            context.attempt += 1
        }
    }
}
