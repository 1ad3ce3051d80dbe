/// The attempts of a call: one, then another whenever an interceptor asks for it (a refreshed
/// token) or the call's retry policy allows it, each through `attempt` (the rate limit, the
/// interceptors and the transport), until one is kept or the next would start past the deadline.
struct AttemptLoop: Sendable {
    let clock: any APIClock
    let interceptors: InterceptorChain

    /// One attempt: `request` and `context` in; `sent` out, the request as it reached the
    /// transport (what interceptors judge a reply against).
    typealias Attempt = (
        _ request: APIRequest, _ context: APICallContext, _ sent: inout APIRequest
    ) async throws(APIError) -> APIResponse

    func run(_ plan: CallPlan, attempt: Attempt) async throws(APIError) -> APIResponse {
        let policy = plan.retry
        var context = plan.context
        var policyAttempts = 1
        var retriesRequested = [Int](repeating: 0, count: interceptors.interceptors.count)
        var random = SystemRandomNumberGenerator()
        while true {
            var sent = plan.request
            let outcome = await Result { () async throws(APIError) in try await attempt(plan.request, context, &sent) }
            switch await interceptors.retryDecision(after: outcome, sent: sent, context: context, requested: &retriesRequested) {
            case .retry where plan.request.canBeSentAgain:
                context.attempt += 1
                continue
            case .retry, .doNotRetry:
                break
            case .fail(let error):
                throw error
            }
            guard policyAttempts < policy.maxAttempts, policy.isRetryable(outcome) else {
                return try outcome.get()
            }
            let pause = policy.delay(after: policyAttempts, response: try? outcome.get(), random: &random)
            guard clock.after(pause) < plan.deadline else { return try outcome.get() }
            do {
                try await clock.sleep(for: pause)
            } catch {
                throw APIError(api: plan.request.api, reason: .cancelled, underlying: error)
            }
            policyAttempts += 1
            context.attempt += 1
        }
    }
}
