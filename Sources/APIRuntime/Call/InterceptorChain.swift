/// Runs `interceptors` in order, the first outermost, around `send`.
struct InterceptorChain: Sendable {
    let interceptors: [any APIInterceptor]

    func run(
        _ request: APIRequest,
        context: APICallContext,
        send: (APIRequest) async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        try await run(request, context: context, from: interceptors[...], send: send)
    }

    private func run(
        _ request: APIRequest,
        context: APICallContext,
        from remaining: ArraySlice<any APIInterceptor>,
        send: (APIRequest) async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        guard let interceptor = remaining.first else {
            return try await send(request)
        }
        // An interceptor's name is asked only of APIs that skip some (a default name is a type name
        // made into a string, too dear to make on every call).
        if !context.definition.skippedInterceptors.isEmpty, context.definition.skippedInterceptors.contains(interceptor.name) {
            return try await run(request, context: context, from: remaining.dropFirst(), send: send)
        }
        return try await interceptor.intercept(request, context: context) { (next: APIRequest) async throws(APIError) -> APIResponse in
            try await run(next, context: context, from: remaining.dropFirst(), send: send)
        }
    }
}
