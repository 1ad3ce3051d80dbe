import Foundation
import HTTPTypes

/// The stage before the duplicate gate for calls of APIs with a `cache:`: a fresh stored reply
/// answers the call with nothing sent; otherwise the network does, with a stale reply's
/// validators when there are some, and what comes back is stored for the next call.
struct CacheStage: Sendable {
    let cache: ResponseCache
    let interceptors: InterceptorChain

    /// The rest of the call after this stage: the duplicate gate, the attempts, the transport.
    typealias Fetch = @Sendable (CallPlan) async throws(APIError) -> APIResponse

    /// The reply a call gets through the cache, where it came from, and the key it is kept under.
    struct Outcome: Sendable {
        var response: APIResponse
        var source: ReplySource
        var key: String
    }

    /// Where a call's replies are kept: under its credential's digest (`scope`), and under the
    /// shared key too when its API's scope is `shared`.
    struct Keys: Sendable {
        /// The digest of the credential the call carries; nil when it carries none.
        let scope: String?
        /// The key of the call's own reply: per credential unless it carries none.
        let own: String
        /// The key of the reply shared by every caller, for `scope: shared`.
        let shared: String?
    }

    /// Runs `plan` through the cache: `fetch` when nothing fresh is stored, and
    /// `refreshInBackground` to revalidate a reply served stale while revalidating.
    func run(
        _ plan: CallPlan, _ caching: CallPlan.Caching, fetch: @escaping Fetch,
        refreshInBackground: (@escaping @Sendable () async throws(APIError) -> Void) -> Void
    ) async throws(APIError) -> Outcome {
        let keys = try await keys(for: plan, caching)
        let now = cache.now
        let stored = storedReply(keys, for: plan)
        switch (caching.policy, stored) {
        case (.reload, _):
            // The network, though a stored reply's validators may spare the body.
            return try await fetchAndStore(plan, caching, keys: keys, stored: stored?.reply, fetch: fetch)
        case (.cacheOnly, nil):
            throw APIError(api: plan.request.api, reason: .notCached)
        case (.cacheOnly, let (key, reply)?):
            let age = reply.freshness.age(at: now)
            guard reply.freshness.isFresh(at: now) else {
                observe(.servedStale(age: age, reason: .cacheOnly), plan)
                return Outcome(response: reply.response, source: .stale(age: age, reason: .cacheOnly), key: key)
            }
            observe(.hit(age: age), plan)
            return Outcome(response: reply.response, source: .cache(age: age), key: key)
        case (.cacheElseNetwork, nil):
            observe(.miss, plan)
        case (.cacheElseNetwork, let (key, reply)?):
            let age = reply.freshness.age(at: now)
            if reply.freshness.isFresh(at: now) {
                observe(.hit(age: age), plan)
                return Outcome(response: reply.response, source: .cache(age: age), key: key)
            }
            if reply.freshness.mayServeWhileRevalidating(at: now) {
                observe(.servedStale(age: age, reason: .revalidating), plan)
                refreshInBackground { [self] () async throws(APIError) in
                    _ = try await fetchAndStore(plan, caching, keys: keys, stored: reply, fetch: fetch)
                }
                return Outcome(response: reply.response, source: .stale(age: age, reason: .revalidating), key: key)
            }
            observe(.miss, plan)
        }
        do {
            return try await fetchAndStore(plan, caching, keys: keys, stored: stored?.reply, fetch: fetch)
        } catch {
            guard let (key, reply) = stored, error.allowsStaleReply, reply.freshness.mayServeOnError(at: cache.now) else { throw error }
            let age = reply.freshness.age(at: cache.now)
            observe(.servedStale(age: age, reason: .error(error)), plan)
            return Outcome(response: reply.response, source: .stale(age: age, reason: .error(error)), key: key)
        }
    }

    /// The call's keys: its credential is the one the first interceptor that attaches one will
    /// attach, else the `Authorization` the call carries itself.
    private func keys(for plan: CallPlan, _ caching: CallPlan.Caching) async throws(APIError) -> Keys {
        let credential = try await interceptors.credential(for: plan.request, context: plan.context)
            ?? plan.request.headerFields[.authorization]
        let scope = credential.map(cache.store.scope(of:))
        return Keys(
            scope: scope,
            own: ResponseCache.key(identity: caching.identity, scope: scope),
            shared: caching.settings.scope == .shared ? ResponseCache.key(identity: caching.identity, scope: nil) : nil
        )
    }

    /// The stored reply for the call and its key, if one matches the headers its `Vary` names.
    private func storedReply(_ keys: Keys, for plan: CallPlan) -> (key: String, reply: CachedReply)? {
        for key in [keys.shared, keys.own].compactMap(\.self) {
            if let reply = cache.store.reply(for: key), reply.matches(plan.request.headerFields) { return (key, reply) }
        }
        return nil
    }

    /// Sends the call (asking the server to confirm `stored` when it can), stores what comes back,
    /// and returns it, or `stored` refreshed when the server says it has not changed.
    private func fetchAndStore(
        _ plan: CallPlan, _ caching: CallPlan.Caching, keys asked: Keys, stored: CachedReply?, fetch: Fetch
    ) async throws(APIError) -> Outcome {
        let validators = caching.settings.revalidate && plan.definition.kind == .rest ? stored?.validators ?? [:] : [:]
        let sent = validators.isEmpty ? plan : plan.revalidating(with: validators)
        let requestedAt = cache.now
        let response = try await fetch(sent)
        let receivedAt = cache.now
        // The reply is the credential's the call carried when it came: a token refreshed during
        // the call (a 401, then a new token) is the one asked again now, not the rejected one.
        let keys = (try? await self.keys(for: plan, caching)) ?? asked
        if sent.isRevalidation, response.httpStatus?.code == 304, let stored {
            var refreshed = stored.updated(with: response.headerFields)
            refreshed.freshness = freshness(of: refreshed.headers, status: 200, caching, requestedAt: requestedAt, receivedAt: receivedAt)
            let key = storageKey(keys, control: refreshed.freshness.control)
            cache.store.store(refreshed, for: key)
            observe(.revalidated, plan)
            return Outcome(response: refreshed.response, source: .revalidated, key: key)
        }
        let key = storageKey(keys, control: CacheControl(response.headerFields[values: .cacheControl]))
        store(response, for: plan, caching, key: key, scope: key == keys.own ? keys.scope : nil, requestedAt: requestedAt, receivedAt: receivedAt)
        return Outcome(response: response, source: .network, key: key)
    }

    /// A reply goes under the shared key only when its API shares replies and either the call
    /// carried no credential or the server says a shared cache may keep it (RFC 9111, 3.5).
    private func storageKey(_ keys: Keys, control: CacheControl) -> String {
        guard let shared = keys.shared, keys.scope == nil || control.allowsSharingAuthorized else { return keys.own }
        return shared
    }

    private func store(
        _ response: APIResponse, for plan: CallPlan, _ caching: CallPlan.Caching, key: String, scope: String?,
        requestedAt: Date, receivedAt: Date
    ) {
        let status = response.httpStatus?.code ?? 200
        guard response.streamedBody == nil, response.stream == nil, response.status.isSuccess,
            HTTPFreshness.isStorable(status: status, headers: response.headerFields)
        else { return }
        let reply = CachedReply(
            status: response.status, body: response.body, headers: response.headerFields, trailers: response.trailerFields,
            freshness: freshness(of: response.headerFields, status: status, caching, requestedAt: requestedAt, receivedAt: receivedAt),
            variants: CachedReply.variants(of: response.headerFields, request: plan.request.headerFields),
            tags: Set(plan.definition.tags), scope: scope
        )
        // A reply that is never fresh, cannot be confirmed, and may not be served stale is of no use.
        let control = reply.freshness.control
        guard reply.freshness.lifetime > 0 || !reply.validators.isEmpty || control.staleIfError != nil || control.staleWhileRevalidate != nil else {
            return
        }
        if cache.store.store(reply, for: key) {
            observe(.stored(bytes: reply.cost(key: key), totalBytes: cache.bytes), plan)
        }
    }

    /// A reply's freshness: the manifest's `ttl` when it sets one, else the server's headers;
    /// the manifest's stale windows where the server names none.
    private func freshness(
        of headers: HTTPFields, status: Int, _ caching: CallPlan.Caching, requestedAt: Date, receivedAt: Date
    ) -> HTTPFreshness {
        let settings = caching.settings
        let server = CacheControl(headers[values: .cacheControl])
        if let ttl = settings.ttl {
            return HTTPFreshness(
                lifetime: Double(ttl), staleWhileRevalidate: settings.staleWhileRevalidate, staleIfError: settings.staleIfError,
                server: server, receivedAt: receivedAt
            )
        }
        return HTTPFreshness(status: status, headers: headers, requestedAt: requestedAt, receivedAt: receivedAt)
            .withStaleWindows(whileRevalidating: settings.staleWhileRevalidate, ifError: settings.staleIfError)
    }

    private func observe(_ event: CacheEvent, _ plan: CallPlan) {
        interceptors.observe(event, context: plan.context)
    }
}

extension APIError {
    /// Whether a stored reply may stand in for the call's (`staleIfError`): the network failed or
    /// was too slow, or the server failed (a 5xx, gRPC's UNAVAILABLE or INTERNAL); never when the call was
    /// cancelled, refused, or the server answered that the request was wrong.
    var allowsStaleReply: Bool {
        switch reason {
        case .transport, .timeout: true
        case .httpStatus(let code, _): (500...599).contains(code)
        case .grpcStatus(let code, _): code == .unavailable || code == .internalError || code == .unknown
        default: false
        }
    }
}

extension APIError.Reason {
    /// Whether the reply did not decode into the API's type.
    var isDecoding: Bool {
        if case .decoding = self { return true }
        return false
    }
}
