import Foundation
import HTTPTypes

/// The stage before the duplicate gate for calls of APIs with a `cache:`: a fresh stored reply
/// answers the call with nothing sent; otherwise the network does, with a stale reply's
/// validators when there are some, and what comes back is stored for the next call. It reads the
/// call's request as sent (`OutgoingRequest`): its identity and credentials key the reply, and its
/// headers are what a reply's `Vary` is matched against.
struct CacheStage: Sendable {
    let cache: ResponseCache
    let interceptors: InterceptorChain
    /// Where a revalidation in the background is registered, so that `cancelAll()` and `shutdown`
    /// reach it, and the deadline it runs within.
    let running: RunningCalls
    let deadlines: Deadlines

    /// The rest of the call after this stage: the duplicate gate, the attempts, the transport.
    typealias Fetch = @Sendable (_ plan: CallPlan, _ first: OutgoingRequest) async throws(APIError) -> AnsweredRequest

    /// The reply a call gets through the cache, where it came from, and the key it is kept under.
    struct Outcome: Sendable {
        var response: APIResponse
        var source: ReplySource
        var key: CacheKey
    }

    /// Where a call's replies are kept: under its account, and under the shared key too when its
    /// API's scope is `shared`.
    struct Keys: Sendable {
        /// The account of the credentials the call carries; nil when it carries none.
        let account: String?
        /// The key of the call's own reply: its account's, or the shared one when it has none.
        let own: CacheKey
        /// The key of the reply shared by every caller, for `scope: shared`.
        let shared: CacheKey?
    }

    /// Runs `plan`, whose first attempt sends `request`, through the cache, and decodes the reply
    /// it gets: `fetch` when nothing fresh is stored. What comes back is stored unless a removal
    /// after `mark` (the store's `removalMark`, read before the request was made) took away what
    /// it would be kept under.
    ///
    /// A stored reply the app's types no longer read (an update changed a model) is dropped, and
    /// the network answers instead, unless the call asked for the cache alone.
    func run<Response>(
        _ plan: CallPlan, _ request: OutgoingRequest, _ caching: CallPlan.Caching, mark: Int, decoder: ResponseDecoder<Response>,
        fetch: @escaping Fetch
    ) async throws(APIError) -> APIReply<Response> {
        let api = plan.request.api
        var outcome = try await self.outcome(plan, request, caching, mark: mark, fetch: fetch)
        var reply: APIReply<Response>
        do throws(APIError) {
            reply = try await decoder.reply(from: outcome.response, api: api)
        } catch where outcome.source.isFromCache && error.reason.isDecoding {
            cache.store.remove(outcome.key)
            guard caching.policy != .cacheOnly else { throw APIError(api: api, reason: .notCached, underlying: error) }
            var reload = caching
            reload.policy = .reload
            outcome = try await self.outcome(plan, request, reload, mark: mark, fetch: fetch)
            reply = try await decoder.reply(from: outcome.response, api: api)
        }
        reply.source = outcome.source
        return reply
    }

    /// The reply `plan` gets through the cache, before it is decoded: a stored one, or the
    /// network's; a reply served stale while revalidating is revalidated in the background.
    private func outcome(
        _ plan: CallPlan, _ request: OutgoingRequest, _ caching: CallPlan.Caching, mark: Int, fetch: @escaping Fetch
    ) async throws(APIError) -> Outcome {
        let keys = keys(for: request, caching)
        let now = cache.now
        let stored = storedReply(keys, for: request)
        switch (caching.policy, stored) {
        case (.reload, _):
            // The network, though a stored reply's validators may spare the body.
            return try await fetchAndStore(plan, request, caching, keys: keys, stored: stored?.reply, mark: mark, fetch: fetch)
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
                // The call's mark, not one read when the refresh starts: a log-out right after this
                // reply is served keeps the refresh, sent with the credentials of before, from
                // storing its reply.
                refreshInBackground(plan, request, caching, keys: keys, stored: reply, mark: mark, fetch: fetch)
                return Outcome(response: reply.response, source: .stale(age: age, reason: .revalidating), key: key)
            }
            observe(.miss, plan)
        }
        do {
            return try await fetchAndStore(plan, request, caching, keys: keys, stored: stored?.reply, mark: mark, fetch: fetch)
        } catch {
            // A token that could not be had (offline) is a failure to reach the server, as a
            // transport's is; the account is known by the name its provider gave.
            guard let (key, reply) = stored, error.allowsStaleReply || error.lacksCredential, reply.freshness.mayServeOnError(at: cache.now) else {
                throw error
            }
            let age = reply.freshness.age(at: cache.now)
            observe(.servedStale(age: age, reason: .error(error)), plan)
            return Outcome(response: reply.response, source: .stale(age: age, reason: .error(error)), key: key)
        }
    }

    /// Revalidates `stored`, served stale, in a task of its own within a deadline of its own (the
    /// call's timeout from now), registered with the manager's running calls so that `cancelAll()`
    /// and `shutdown` reach it.
    private func refreshInBackground(
        _ plan: CallPlan, _ request: OutgoingRequest, _ caching: CallPlan.Caching, keys: Keys, stored: CachedReply, mark: Int,
        fetch: @escaping Fetch
    ) {
        let refresh = plan.restarted(at: deadlines.clock.now)
        let request = request.restarted(until: refresh.deadline)
        Task { [self] in
            await running.run(tags: Set(refresh.definition.tags)) { [self] task in
                _ = await Result { () async throws(APIError) in
                    try await deadlines.enforce(refresh.deadline, timeout: refresh.timeout, api: refresh.request.api, on: task) { () async throws(APIError) in
                        _ = try await fetchAndStore(refresh, request, caching, keys: keys, stored: stored, mark: mark, fetch: fetch)
                    }
                }
            }
        }
    }

    /// The call's keys: the digest of its identity as sent, and the account of its credentials.
    private func keys(for request: OutgoingRequest, _ caching: CallPlan.Caching) -> Keys {
        let identity = cache.store.digest(request.identity)
        let account = cache.account(of: request)
        return Keys(
            account: account,
            own: CacheKey(identity: identity, account: account),
            shared: caching.settings.scope == .shared ? CacheKey(identity: identity, account: nil) : nil
        )
    }

    /// The stored reply for the call and its key, if one matches the headers its `Vary` names as
    /// the request carries them.
    private func storedReply(_ keys: Keys, for request: OutgoingRequest) -> (key: CacheKey, reply: CachedReply)? {
        for key in [keys.shared, keys.own].compactMap(\.self) {
            if let reply = cache.store.reply(for: key), reply.matches(request.request.headerFields, digest: cache.store.digest) {
                return (key, reply)
            }
        }
        return nil
    }

    /// Sends the call (asking the server to confirm `stored` when it can), stores what comes back,
    /// and returns it, or `stored` refreshed when the server says it has not changed. What comes
    /// back is kept under the request that got it: the last attempt's, whose credentials may not be
    /// the first's (a token added after a challenge, or refreshed); unless a removal after `mark`
    /// took away what it would be kept under.
    private func fetchAndStore(
        _ plan: CallPlan, _ request: OutgoingRequest, _ caching: CallPlan.Caching, keys asked: Keys, stored: CachedReply?, mark: Int,
        fetch: Fetch
    ) async throws(APIError) -> Outcome {
        let validators = caching.settings.revalidate && plan.definition.kind == .rest ? stored?.validators ?? [:] : [:]
        let sent = validators.isEmpty ? request : request.revalidating(with: validators)
        let requestedAt = cache.now
        let exchange = try await fetch(plan, sent)
        let receivedAt = cache.now
        let response = exchange.response, answered = exchange.request
        let keys = answered.isSameCaller(as: request) && answered.identity == request.identity ? asked : self.keys(for: answered, caching)
        if answered.isRevalidation, response.httpStatus?.code == 304, let stored {
            var refreshed = stored.updated(with: response.headerFields)
            refreshed.freshness = freshness(of: refreshed.headers, status: 200, caching, requestedAt: requestedAt, receivedAt: receivedAt)
            let key = storageKey(keys, control: refreshed.freshness.control)
            refreshed.account = key.account
            if !response.redirectChangedCredentials {
                cache.store.store(refreshed, for: key, linking: credentialDigests(answered, key), unlessRemovedSince: mark)
            }
            observe(.revalidated, plan)
            return Outcome(response: refreshed.response, source: .revalidated, key: key)
        }
        let key = storageKey(keys, control: CacheControl(response.headerFields[values: .cacheControl]))
        store(response, for: plan, answered, caching, key: key, requestedAt: requestedAt, receivedAt: receivedAt, mark: mark)
        return Outcome(response: response, source: .network, key: key)
    }

    /// A reply goes under the shared key only when its API shares replies, the server does not
    /// mark it `private`, and either the call carried no credential or the server says a shared
    /// cache may keep it (`public` or `s-maxage`, RFC 9111, section 3.5).
    private func storageKey(_ keys: Keys, control: CacheControl) -> CacheKey {
        guard let shared = keys.shared, !control.isPrivate, keys.account == nil || control.allowsSharingAuthorized else { return keys.own }
        return shared
    }

    /// Stores a reply that came back, unless what it would be kept under was removed after
    /// `mark`, when the call was sent (a mutation's `invalidates:`, a log-out): it is older than
    /// that removal.
    private func store(
        _ response: APIResponse, for plan: CallPlan, _ request: OutgoingRequest, _ caching: CallPlan.Caching, key: CacheKey,
        requestedAt: Date, receivedAt: Date, mark: Int
    ) {
        let status = response.httpStatus?.code ?? 200
        guard response.streamedBody == nil, response.stream == nil, response.status.isSuccess, !response.redirectChangedCredentials,
            HTTPFreshness.isStorable(status: status, headers: response.headerFields)
        else { return }
        let digest = cache.store.digest
        let reply = CachedReply(
            status: response.status, body: response.body, headers: CachedReply.storedFields(response.headerFields), trailers: response.trailerFields,
            freshness: freshness(of: response.headerFields, status: status, caching, requestedAt: requestedAt, receivedAt: receivedAt),
            variants: CachedReply.variants(of: response.headerFields, request: request.request.headerFields, digest: digest),
            tags: Set(plan.definition.tags), account: key.account, call: digest(plan.callIdentity)
        )
        // A reply that is never fresh, cannot be confirmed, and may not be served stale is of no use.
        let control = reply.freshness.control
        guard reply.freshness.lifetime > 0 || !reply.validators.isEmpty || control.staleIfError != nil || control.staleWhileRevalidate != nil else {
            return
        }
        guard cache.store.store(reply, for: key, linking: credentialDigests(request, key), unlessRemovedSince: mark) else { return }
        observe(.stored(bytes: reply.cost(key: key.text), totalBytes: cache.bytes), plan)
    }

    /// The digests of the credentials `request` carried and of the names a log-out may give them,
    /// which find the account of a reply kept under `key` from now on; none for a shared reply.
    private func credentialDigests(_ request: OutgoingRequest, _ key: CacheKey) -> [String] {
        key.account == nil ? [] : cache.digests(of: request.credentials)
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
