import NIOConcurrencyHelpers

/// Token buckets, one per API or per host, as each call's `RateLimit` says.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// Guards every bucket.
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])

    /// Takes a token for a call, waiting for one under `.wait` (no longer than `deadline`), or
    /// failing at once under `.fail`.
    func acquire(_ limit: RateLimit, key: String, api: String, deadline: ContinuousClock.Instant) async throws(APIError) {
        while true {
            let wait = take(limit, key: key)
            guard let wait else { return }
            guard limit.behavior == .wait else {
                throw APIError(api: api, reason: .rateLimited(message: "more than \(limit.calls) calls in \(limit.interval)"))
            }
            guard ContinuousClock.now + wait < deadline else {
                throw APIError(api: api, reason: .rateLimited(message: "no call allowed before the call's timeout"))
            }
            do {
                try await Task.sleep(for: wait)
            } catch {
                throw APIError(api: api, reason: .cancelled, underlying: error)
            }
        }
    }

    /// Takes a token and returns nil, or returns how long until one is there.
    private func take(_ limit: RateLimit, key: String) -> Duration? {
        let now = ContinuousClock.now
        let capacity = Double(limit.calls)
        let perSecond = capacity / (Double(limit.interval.components.seconds) + Double(limit.interval.components.attoseconds) / 1e18)
        return buckets.withLockedValue { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(capacity, bucket.tokens + seconds * perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return .milliseconds(Int(((1 - bucket.tokens) / perSecond * 1000).rounded(.up)))
        }
    }
}
