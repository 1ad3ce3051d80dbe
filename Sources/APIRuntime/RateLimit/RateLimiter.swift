import NIOConcurrencyHelpers

/// Token buckets, one per API or per host, as each call's `RateLimit` says.
///
/// A call that finds no token under `.wait` reserves the next one not yet promised, and sleeps
/// once, until that token is due: callers are served first come, first served, and each token
/// wakes one caller. The bucket may go below zero while tokens are promised.
final class RateLimiter: Sendable {
    private struct Bucket {
        /// Tokens now; below zero when more have been promised than are there.
        var tokens: Double
        var updated: ContinuousClock.Instant
        /// Calls asleep until their promised token is due.
        var waiting = 0
        /// The size and rate of the limit the bucket was made for, for telling a full bucket
        /// when no call names its limit (APIs sharing a host's bucket may name different ones).
        let capacity: Double
        let perSecond: Double

        /// The tokens there are at `now` under a limit of `capacity` and `perSecond`: what has
        /// dripped in since `updated` added, never above `capacity`.
        func tokens(at now: ContinuousClock.Instant, capacity: Double, perSecond: Double) -> Double {
            min(capacity, tokens + (now - updated).inSeconds * perSecond)
        }
    }

    private enum Admission {
        case now
        case at(ContinuousClock.Instant)
        case refused(String)
    }

    private struct Buckets {
        var byKey: [String: Bucket] = [:]
        /// How many buckets there may be before the full ones are dropped.
        var sweepAbove = 64
    }

    /// Guards every bucket.
    private let buckets = NIOLockedValueBox(Buckets())
    private let clock: any APIClock

    init(clock: any APIClock) {
        self.clock = clock
    }

    /// The rate-limit stage of an attempt: a token from each of the call's buckets, waiting its
    /// turn for one as its limit says.
    func admit(_ plan: CallPlan) async throws(APIError) {
        for bucket in plan.rateLimits {
            try await acquire(bucket.limit, key: bucket.key, api: plan.request.api, deadline: plan.deadline)
        }
    }

    /// Takes a token for a call, waiting its turn for one under `.wait` (refused at once when its
    /// turn comes after `deadline`), or failing at once under `.fail`.
    func acquire(_ limit: RateLimit, key: String, api: String, deadline: ContinuousClock.Instant) async throws(APIError) {
        switch admit(limit, key: key, deadline: deadline) {
        case .now:
            return
        case .refused(let message):
            throw APIError(api: api, reason: .rateLimited(message: message))
        case .at(let instant):
            do {
                try await clock.sleep(until: instant)
                stopWaiting(limit, key: key, givingBack: false)
            } catch {
                // The promised token goes back, for whoever asks next.
                stopWaiting(limit, key: key, givingBack: true)
                throw APIError(api: api, reason: .cancelled, underlying: error)
            }
        }
    }

    /// How many calls wait their turn for the bucket `key`.
    func waitingCount(_ key: String) -> Int {
        buckets.withLockedValue { $0.byKey[key]?.waiting ?? 0 }
    }

    /// How many buckets are kept.
    var count: Int {
        buckets.withLockedValue { $0.byKey.count }
    }

    private func admit(_ limit: RateLimit, key: String, deadline: ContinuousClock.Instant) -> Admission {
        let now = clock.now
        let perSecond = Self.perSecond(limit)
        return buckets.withLockedValue { buckets in
            if buckets.byKey.count > buckets.sweepAbove { sweep(&buckets, now: now) }
            var bucket = refilled(buckets.byKey[key], limit, now: now)
            defer { buckets.byKey[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return .now
            }
            guard limit.behavior == .wait else {
                return .refused("more than \(limit.calls) calls in \(limit.interval)")
            }
            let due = now + Duration.seconds(Swift.min((1 - bucket.tokens) / perSecond, Self.longestWaitSeconds))
            guard due < deadline else {
                return .refused("no call allowed before the call's timeout")
            }
            bucket.tokens -= 1
            bucket.waiting += 1
            return .at(due)
        }
    }

    private func stopWaiting(_ limit: RateLimit, key: String, givingBack: Bool) {
        let now = clock.now
        buckets.withLockedValue { buckets in
            var bucket = refilled(buckets.byKey[key], limit, now: now)
            bucket.waiting -= 1
            if givingBack { bucket.tokens = min(Double(limit.calls), bucket.tokens + 1) }
            buckets.byKey[key] = bucket
        }
    }

    /// Drops the buckets that have refilled and have no one waiting: a full bucket is what a
    /// missing one is made as, so nothing changes but memory (a bucket per host the app has ever
    /// called would otherwise be kept for good). The next sweep waits until the table has doubled.
    private func sweep(_ buckets: inout Buckets, now: ContinuousClock.Instant) {
        buckets.byKey = buckets.byKey.filter { _, bucket in
            bucket.waiting > 0 || bucket.tokens(at: now, capacity: bucket.capacity, perSecond: bucket.perSecond) < bucket.capacity
        }
        buckets.sweepAbove = max(64, 2 * buckets.byKey.count)
    }

    /// The bucket with what has dripped in since it was last looked at, never above its size.
    private func refilled(_ bucket: Bucket?, _ limit: RateLimit, now: ContinuousClock.Instant) -> Bucket {
        let capacity = Double(limit.calls)
        guard var bucket else { return Bucket(tokens: capacity, updated: now, capacity: capacity, perSecond: Self.perSecond(limit)) }
        bucket.tokens = bucket.tokens(at: now, capacity: capacity, perSecond: Self.perSecond(limit))
        bucket.updated = now
        return bucket
    }

    private static let longestWaitSeconds = Duration.longestWait.inSeconds

    private static func perSecond(_ limit: RateLimit) -> Double {
        Double(limit.calls) / Swift.max(limit.interval.clampedForWaiting.inSeconds, 1e-9)
    }
}
