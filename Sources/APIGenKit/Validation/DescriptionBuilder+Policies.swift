import APIManifest
import Foundation

/// `retry:`, `rateLimit:`, `sample:` and `cache:`, checked and described.
extension DescriptionBuilder {
    mutating func describeRetry(_ retry: RetryDeclaration, forNonIdempotent method: String?) -> RetryDescription? {
        if retry.isNone { return RetryDescription(isNone: true, nonIdempotent: false) }
        var valid = true
        if let attempts = retry.attempts, !(1...RetryPolicySettings.attemptLimit).contains(attempts.value) {
            diagnostics.error("attempts must be between 1 and \(RetryPolicySettings.attemptLimit), found \(attempts.value)", at: attempts.location)
            valid = false
        }
        for delay in [retry.delay, retry.maxDelay].compactMap({ $0 }) where delay.value < 0 {
            diagnostics.error("a retry delay cannot be negative, found \(delay.value)", at: delay.location)
            valid = false
        }
        for status in retry.statuses where !(100...599).contains(status.value) {
            diagnostics.error("\(status.value) is not an HTTP status code", at: status.location)
            valid = false
        }
        let nonIdempotent = retry.nonIdempotent?.value ?? false
        if let method, (retry.attempts?.value ?? RetryPolicySettings.defaultAttempts) > 1, !nonIdempotent {
            diagnostics.error(
                "\(method) is not idempotent: sending it again could repeat its effect. Add 'nonIdempotent: true' to 'retry:' if the server makes repeats safe",
                at: retry.location
            )
            valid = false
        }
        guard valid else { return nil }
        return RetryDescription(
            isNone: false, attempts: retry.attempts?.value ?? RetryPolicySettings.defaultAttempts,
            delaySeconds: retry.delay?.value, maxDelaySeconds: retry.maxDelay?.value,
            statuses: retry.statuses.isEmpty ? nil : retry.statuses.map(\.value), nonIdempotent: nonIdempotent
        )
    }

    mutating func describeRateLimit(_ limit: RateLimitDeclaration) -> RateLimitDescription? {
        var valid = true
        if limit.calls.value < 1 {
            diagnostics.error("calls must be at least 1, found \(limit.calls.value)", at: limit.calls.location)
            valid = false
        }
        if limit.per.value <= 0 {
            diagnostics.error("per must be a positive number of seconds, found \(limit.per.value)", at: limit.per.location)
            valid = false
        }
        guard valid else { return nil }
        return RateLimitDescription(calls: limit.calls.value, perSeconds: limit.per.value, scope: limit.scope?.value, behavior: limit.behavior?.value)
    }

    mutating func describeSample(_ sample: SampleDeclaration) -> SampleDescription? {
        if let status = sample.status, !(100...599).contains(status.value) {
            diagnostics.error("\(status.value) is not an HTTP status code", at: status.location)
            return nil
        }
        if let delay = sample.delay, delay.value < 0 {
            diagnostics.error("a sample delay cannot be negative, found \(delay.value)", at: delay.location)
            return nil
        }
        return SampleDescription(status: sample.status?.value ?? 200, json: sample.body?.value, delaySeconds: sample.delay?.value)
    }

    func describeCache(_ cache: CacheDeclaration) -> CacheDescription {
        CacheDescription(
            ttl: cache.ttl?.value, staleWhileRevalidate: cache.staleWhileRevalidate?.value, staleIfError: cache.staleIfError?.value,
            revalidate: cache.revalidate?.value, scope: cache.scope?.value
        )
    }

    /// An API's `cache:`, where it can apply: a call without side effects (a REST GET or HEAD, an
    /// RPC method marked safe), whose reply is one value read whole.
    mutating func checkCache(_ cache: CacheDeclaration, of api: APIDeclaration, description: APIDescription) -> CacheDescription? {
        let problem: String? = switch description.shape {
        case .rest(let rest) where rest.method != .GET && rest.method != .HEAD:
            "a \(rest.method.rawValue) has side effects; only GET and HEAD replies are cached (a mutation can drop cached replies with 'invalidates:')"
        case .rest:
            nil
        case .jsonRPC(let rpc), .customRPC(let rpc):
            rpc.isNotification ? "a notification has no reply to cache"
                : description.safe ? nil : "an RPC method may have side effects: mark it 'safe: true' if it has none"
        case .grpc(let grpc):
            grpc.clientStreams || grpc.serverStreams ? "a gRPC stream cannot be cached, only a unary call"
                : description.safe ? nil : "a gRPC method may have side effects: mark it 'safe: true', or declare 'option idempotency_level = NO_SIDE_EFFECTS' in its proto"
        }
        let stream: String? = switch description.response.decoding {
        case .download: "a download is written to a file, not kept in the cache"
        case .events, .textEvents, .jsonLines: "a reply stream cannot be cached"
        default: nil
        }
        if let reason = problem ?? stream {
            diagnostics.error("cache: \(reason)", at: cache.location)
            return nil
        }
        return describeCache(cache)
    }
}
