import Metrics

/// Counts calls, errors and durations per API through swift-metrics:
/// `apigen_calls_total{api, kind, status}`, `apigen_errors_total{api, kind, reason}` and the
/// timer `apigen_call_duration{api, kind}`. Each attempt of a retried call counts once.
///
/// For APIs with a `cache:`, it counts what the cache did, `apigen_cache_events_total{api, kind,
/// event}` (`hit`, `miss`, `revalidated`, `stale`, `stored`), the bytes stored,
/// `apigen_cache_stored_bytes_total{api, kind}`, and records the store's size in the gauge
/// `apigen_cache_bytes`.
public struct MetricsInterceptor: APIInterceptor {
    let factory: any MetricsFactory

    /// Uses the process-wide `MetricsSystem` unless a factory is given (tests pass their own).
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory ?? MetricsSystem.factory
    }

    /// `metrics`, as a manifest names it in `skipInterceptors:`.
    public var name: String { "metrics" }

    /// Times the attempt and counts it, with its status or its error's reason.
    public func intercept(
        _ request: APIRequest,
        context: APICallContext,
        next: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        let dimensions = [("api", request.api), ("kind", context.kind.description)]
        let start = ContinuousClock.now
        defer {
            Timer(label: "apigen_call_duration", dimensions: dimensions, factory: factory)
                .recordNanoseconds(Int64((ContinuousClock.now - start) / .nanoseconds(1)))
        }
        do {
            let response = try await next()
            Counter(label: "apigen_calls_total", dimensions: dimensions + [("status", response.statusSummary)], factory: factory).increment()
            return response
        } catch {
            Counter(label: "apigen_calls_total", dimensions: dimensions + [("status", "error")], factory: factory).increment()
            Counter(label: "apigen_errors_total", dimensions: dimensions + [("reason", error.reason.name)], factory: factory).increment()
            throw error
        }
    }
}

extension MetricsInterceptor {
    /// Counts the event; a stored reply adds its bytes and records the store's size.
    public func observe(_ event: CacheEvent, context: APICallContext) {
        let dimensions = [("api", context.definition.name), ("kind", context.kind.description)]
        Counter(label: "apigen_cache_events_total", dimensions: dimensions + [("event", event.name)], factory: factory).increment()
        if case .stored(let bytes, let totalBytes) = event {
            Counter(label: "apigen_cache_stored_bytes_total", dimensions: dimensions, factory: factory).increment(by: bytes)
            Gauge(label: "apigen_cache_bytes", factory: factory).record(totalBytes)
        }
    }
}

extension APIError.Reason {
    /// A short stable name for the reason, for metric dimensions and logs.
    public var name: String {
        switch self {
        case .transport: "transport"
        case .tls: "tls"
        case .httpStatus: "http_status"
        case .decoding: "decoding"
        case .invalidRequest: "invalid_request"
        case .invalidResponse: "invalid_response"
        case .rpcError: "rpc_error"
        case .grpcStatus: "grpc_status"
        case .duplicateRequest: "duplicate_request"
        case .cancelled: "cancelled"
        case .timeout: "timeout"
        case .unauthorized: "unauthorized"
        case .rateLimited: "rate_limited"
        case .notCached: "not_cached"
        case .notStubbed: "not_stubbed"
        }
    }
}
