/// The global interceptors of a manager, in order, the first outermost: each attempt's request is
/// adapted by each in turn, then sent through their `intercept`s.
struct InterceptorChain: Sendable {
    let interceptors: [any APIInterceptor]

    /// `request` as every interceptor the API does not skip adapts it, first to last.
    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        var request = request
        for interceptor in interceptors where !skips(interceptor, context) {
            request = try await interceptor.adapt(request, context: context)
        }
        return request
    }

    /// Runs the interceptors' `intercept`s around `send`, the first outermost.
    func run(
        _ request: APIRequest,
        context: APICallContext,
        send: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        try await run(request, context: context, from: interceptors[...], send: send)
    }

    private func run(
        _ request: APIRequest,
        context: APICallContext,
        from remaining: ArraySlice<any APIInterceptor>,
        send: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        guard let interceptor = remaining.first else {
            return try await send()
        }
        if skips(interceptor, context) {
            return try await run(request, context: context, from: remaining.dropFirst(), send: send)
        }
        return try await interceptor.intercept(request, context: context) { () async throws(APIError) -> APIResponse in
            try await run(request, context: context, from: remaining.dropFirst(), send: send)
        }
    }

    /// The first decision other than `doNotRetry` of the interceptors the API does not skip, in
    /// order; `requested[i]` counts the retries interceptor `i` asked for during the call.
    func retryDecision(
        after outcome: Result<APIResponse, APIError>, sent request: APIRequest, context: APICallContext, requested: inout [Int]
    ) async -> RetryDecision {
        for (index, interceptor) in interceptors.enumerated() where !skips(interceptor, context) {
            var asked = context
            asked.retriesRequested = requested[index]
            let decision = await interceptor.retryDecision(after: outcome, sent: request, context: asked)
            if case .doNotRetry = decision { continue }
            if case .retry = decision { requested[index] += 1 }
            return decision
        }
        return .doNotRetry
    }

    /// Tells every interceptor the API does not skip what the cache did.
    func observe(_ event: CacheEvent, context: APICallContext) {
        for interceptor in interceptors where !skips(interceptor, context) {
            interceptor.observe(event, context: context)
        }
    }

    /// An interceptor's name is asked only of APIs that skip some (a default name is a type name
    /// made into a string, too dear to make on every call).
    private func skips(_ interceptor: any APIInterceptor, _ context: APICallContext) -> Bool {
        !context.definition.skippedInterceptors.isEmpty && context.definition.skippedInterceptors.contains(interceptor.name)
    }
}
