import Foundation
import HTTPTypes

/// When and how a failed call is sent again (Alamofire's `RetryPolicy`, in our terms).
///
/// Only idempotent methods (GET, HEAD, PUT, DELETE) are retried unless `retriesNonIdempotent`
/// says the API is safe to send twice. The delay doubles from `baseDelay` up to `maxDelay`, with
/// jitter so that many clients do not retry in step; a `Retry-After` header is honoured. All
/// attempts together stay within the API's timeout.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included: 1 means no retry.
    public var maxAttempts: Int
    /// The pause before the second attempt; each later pause doubles it.
    public var baseDelay: Duration
    /// The longest pause between attempts.
    public var maxDelay: Duration
    /// The HTTP statuses that are retried. A transport error and gRPC's UNAVAILABLE always are;
    /// a timeout never is, as it has spent the call's time.
    public var retryableStatuses: Set<Int>
    /// Whether POST, PATCH and non-idempotent RPC methods are retried too.
    public var retriesNonIdempotent: Bool

    /// Request Timeout, Too Many Requests (after its `Retry-After`), and the server errors that say
    /// "try again": 500, 502, 503, 504.
    public static let defaultStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// At most `maxAttempts` attempts, pausing from `baseDelay` doubling up to `maxDelay`, after a
    /// transport error or one of `retryableStatuses`.
    public init(
        maxAttempts: Int,
        baseDelay: Duration = .milliseconds(200),
        maxDelay: Duration = .seconds(5),
        retryableStatuses: Set<Int> = RetryPolicy.defaultStatuses,
        retriesNonIdempotent: Bool = false
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retryableStatuses = retryableStatuses
        self.retriesNonIdempotent = retriesNonIdempotent
    }

    /// No retries: the default.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Whether a call of `definition` may be sent more than once at all.
    func allows(_ definition: APIDefinition) -> Bool {
        guard maxAttempts > 1 else { return false }
        switch definition.wire {
        case .grpc(let method):
            // A request stream is written once, as it goes: there is nothing to send again.
            return !method.shape.clientStreams && (retriesNonIdempotent || method.isIdempotent)
        case .jsonRPC, .customRPC:
            return retriesNonIdempotent
        case .http(let method, _):
            return retriesNonIdempotent || [.get, .head, .put, .delete, .options].contains(method)
        }
    }

    /// Whether this outcome of an attempt is worth another one.
    func isRetryable(_ outcome: Result<APIResponse, APIError>) -> Bool {
        switch outcome {
        case .success(let response):
            switch response.status {
            case .http(let status): return retryableStatuses.contains(status.code)
            // UNAVAILABLE: the server could not take the call.
            case .grpc(let code, _): return code == .unavailable
            case .grpcStream: return false
            }
        case .failure(let error):
            // Transient network errors; a timeout has spent the budget, a cancel means stop.
            if case .transport = error.reason { return true }
            return false
        }
    }

    /// The pause before attempt `attempt + 1`: exponential with jitter, or what the server asked.
    func delay(after attempt: Int, response: APIResponse?, random: inout some RandomNumberGenerator) -> Duration {
        if let retryAfter = response.flatMap(Self.retryAfter) { return retryAfter }
        let exponent = min(attempt - 1, 20)
        let ceiling = min(baseDelay.clampedForWaiting * (1 << exponent), maxDelay)
        // Half the ceiling fixed, half random: spread out, never immediately.
        let fraction = 0.5 + Double.random(in: 0..<0.5, using: &random)
        return ceiling * fraction
    }

    /// `Retry-After: 3` or `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT` (any of HTTP's three date
    /// formats) as a duration from now.
    static func retryAfter(_ response: APIResponse) -> Duration? {
        guard let value = response.headerFields[.retryAfter]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }
}
