/// The attempts of a call: one, then another whenever an interceptor asks for it (a refreshed
/// token) or the call's retry policy allows it, each through `attempt` (the rate limit, the
/// interceptors and the transport), until one is kept or the next would start past the deadline.
/// The first attempt sends the request the earlier stages read; each later one sends a request
/// made anew (`prepare`), so that a refreshed token or a cookie a reply set goes with it.
struct AttemptLoop: Sendable {
    let clock: any APIClock
    let interceptors: InterceptorChain

    /// The request of a later attempt, whose context is `context`; `previous` is the request of
    /// the attempt before it, and `askedByInterceptor` whether an interceptor asked for this one
    /// (after refreshing a token, say) rather than the retry policy.
    typealias Prepare = (
        _ previous: OutgoingRequest, _ context: APICallContext, _ askedByInterceptor: Bool
    ) async throws(APIError) -> OutgoingRequest
    /// One attempt: its request as sent and its context in, the reply out.
    typealias Attempt = (_ request: OutgoingRequest, _ context: APICallContext) async throws(APIError) -> APIResponse

    /// The reply of the attempt kept, with that attempt's request.
    func run(_ plan: CallPlan, first: OutgoingRequest, prepare: Prepare, attempt: Attempt) async throws(APIError) -> AnsweredRequest {
        let policy = plan.retry
        var context = plan.context
        var outgoing = first
        var policyAttempts = 1
        var retriesRequested = [Int](repeating: 0, count: interceptors.interceptors.count)
        var random = SystemRandomNumberGenerator()
        while true {
            let outcome = await Result { () async throws(APIError) in try await attempt(outgoing, context) }
            switch await interceptors.retryDecision(after: outcome, sent: outgoing.request, context: context, requested: &retriesRequested) {
            case .retry where outgoing.request.canBeSentAgain:
                context.attempt += 1
                outgoing = try await prepare(outgoing, context, true)
                continue
            case .retry, .doNotRetry:
                break
            case .fail(let error):
                throw error
            }
            guard policyAttempts < policy.maxAttempts, policy.isRetryable(outcome) else {
                return AnsweredRequest(response: try outcome.get(), request: outgoing)
            }
            let pause = policy.delay(after: policyAttempts, response: try? outcome.get(), random: &random)
            guard clock.after(pause) < plan.deadline else { return AnsweredRequest(response: try outcome.get(), request: outgoing) }
            do {
                try await clock.sleep(for: pause)
            } catch {
                throw APIError(api: plan.request.api, reason: .cancelled, underlying: error)
            }
            policyAttempts += 1
            context.attempt += 1
            outgoing = try await prepare(outgoing, context, false)
        }
    }
}
