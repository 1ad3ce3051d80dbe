import APIWireFormat
import NIOConcurrencyHelpers

/// Sends every API. One `shared` instance serves an app; tests make their own and shut them down.
///
/// A call is first resolved into a plan (`plan(_:)`: every setting chosen once, the deadline
/// set), then runs through these stages, in this order, all within its one deadline:
///
/// 1. the request as sent: the plan's, with the manager's cookies, adapted by every interceptor
///    (`APIInterceptor.adapt`); what every later stage reads;
/// 2. the response cache, for APIs with a `cache:`: a fresh stored reply ends the call here;
/// 3. the duplicate gate: its frequency policy (allow, reject or coalesce identical calls);
/// 4. the attempt loop: attempt after attempt as its retry policy allows, each one through
/// 5. the rate limit,
/// 6. the global interceptors' `intercept`, and
/// 7. a stub or the transport of its session (one per host);
/// 8. its protocol's unwrapping (a successful call of an API with `invalidates:` then removes
///    the cached replies it made stale), and the decoding of its result.
///
/// docs/ARCHITECTURE.md lists the file of each stage.
public final class APIManager: Sendable {
    /// The manager generated APIs use unless an instance is given another. Made on first use
    /// from the configuration `bootstrap` set, or the default one.
    public static var shared: APIManager { SharedManager.instance.manager }

    /// Sets the configuration of `shared`, once, before its first use: the place an app or a
    /// server picks its transports and interceptors.
    ///
    /// ```swift
    /// APIManager.bootstrap { $0.httpTransport = .asyncHTTPClient }
    /// ```
    public static func bootstrap(_ configure: (inout Configuration) -> Void) {
        SharedManager.instance.bootstrap(configure)
    }

    /// The configuration the manager was made with; it does not change.
    public let configuration: Configuration
    let clock: any APIClock
    /// `configuration.baseURLOverrides`, each replacement parsed once.
    let baseURLs: BaseURLResolver
    /// `configuration.tls`, keyed by host names as requests name them (`HostName.key`).
    let tls: [String: TLSSettings]
    /// The cookies of this manager's sessions, as `configuration.cookies` says.
    let cookies: CookieJar
    /// `configuration.maxConnectionsByHost`, keyed as `tls` is; each at least 1.
    let maxConnectionsByHost: [String: Int]
    /// The replies kept for APIs whose manifest says `cache:`.
    public let cache: ResponseCache
    let running = RunningCalls()
    let deadlines: Deadlines
    let preparation: Preparation
    let caching: CacheStage
    let duplicates: DuplicateGate
    let attempts: AttemptLoop
    let rateLimiter: RateLimiter
    let interceptors: InterceptorChain
    let transports: TransportStage
    private let requestIDs = NIOLockedValueBox(0)

    /// A manager of its own, with no sessions yet: for a second account, a test, or a server's clients. Shut it down when done.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.clock = configuration.clock
        self.baseURLs = BaseURLResolver(overrides: configuration.baseURLOverrides)
        self.tls = TLSSettings.byHost(configuration.tls)
        self.cookies = CookieJar(policy: configuration.cookies)
        self.maxConnectionsByHost = Dictionary(
            configuration.maxConnectionsByHost.map { (HostName.key($0.key), max(1, $0.value)) },
            uniquingKeysWith: max
        )
        self.deadlines = Deadlines(clock: clock)
        self.duplicates = DuplicateGate(message: configuration.duplicateRequestMessage)
        self.interceptors = InterceptorChain(interceptors: configuration.interceptors)
        self.preparation = Preparation(interceptors: interceptors)
        self.cache = ResponseCache(storage: configuration.cache, clock: clock, baseURLs: baseURLs)
        self.caching = CacheStage(cache: cache, interceptors: interceptors, running: running, deadlines: deadlines)
        self.attempts = AttemptLoop(clock: clock, interceptors: interceptors)
        self.rateLimiter = RateLimiter(clock: clock)
        self.transports = TransportStage(
            sessions: SessionCache(capacity: configuration.maxSessions, configuration: configuration),
            stubs: StubStage(configured: configuration.stubs, clock: clock)
        )
    }

    /// The number of sessions this manager holds open.
    public var sessionCount: Int { transports.sessions.count }

    /// The number of calls under the `reject` or `coalesce` policy that are on the wire right now.
    public var inFlightCount: Int { duplicates.inFlight.count }

    /// Callers waiting on coalesced calls right now.
    var coalescedWaiterCount: Int { duplicates.inFlight.waiterCount }

    /// Cancels every running call tagged `tag` (by its manifest's `tags:` or its options'), open
    /// reply streams and JSON-RPC batches included; returns how many were cancelled.
    @discardableResult
    public func cancel(tag: String) -> Int { running.cancel(tag: tag) }

    /// Cancels every running call, open reply streams and JSON-RPC batches included; returns how
    /// many were cancelled.
    @discardableResult
    public func cancelAll() -> Int { running.cancel(tag: nil) }

    /// Refuses new calls at once, lets the calls in flight (reply streams included) finish for up
    /// to `gracePeriod`, cancels those still running after it and gives them `sessionCloseLimit`
    /// to end, then closes every session. It returns within `gracePeriod` plus twice
    /// `sessionCloseLimit`, whatever the calls and the servers do: a call whose interceptor or
    /// transport ignores cancellation ends on its own after the sessions under it have closed.
    /// Cancelling the task that waits in `shutdown` cuts the grace period short: the calls are
    /// cancelled at once.
    public func shutdown(gracePeriod: Duration = .seconds(30)) async {
        running.close()
        if await !running.idle(within: gracePeriod, on: clock) {
            running.cancel(tag: nil)
            _ = await running.idle(within: Self.sessionCloseLimit, on: SystemClock())
        }
        await closeSessions()
    }

    /// How long `shutdown` waits for the calls it cancelled to end, and then for its sessions to
    /// close. Closing a TLS connection waits for the server's close_notify, which some servers
    /// never send (grpcio's); SwiftNIO's TLS gives up on it after 5 s. Past this limit the manager
    /// returns and the closes end on their own.
    public static let sessionCloseLimit = Duration.seconds(1)

    /// Closes every session, waiting for them at most `sessionCloseLimit` of real time (the
    /// sockets' time, not the manager's clock).
    private func closeSessions() async {
        let closed = OnceResult<Void>()
        Task { [sessions = transports.sessions] in
            await sessions.shutdown()
            closed.resolve(.success(()))
        }
        let limit = Task {
            try? await Task.sleep(for: Self.sessionCloseLimit)
            closed.resolve(.success(()))
        }
        try? await withTaskCancellationHandler {
            try await closed.value
        } onCancel: {
            closed.resolve(.success(()))
        }
        limit.cancel()
    }

    // MARK: Sending

    /// Plans and sends `call` in a task of its own (`RunningCalls.run`), with its progress reported to
    /// its options' handler; a reply that goes on (a stream) stays cancellable until it ends.
    func send<Response>(
        _ call: APICall<Response>,
        registering register: @escaping (_ cancel: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)?
    ) async throws(APIError) -> APIReply<Response> {
        let tags = call.options.tags.union(call.definition.tags)
        let outcome = await running.run(tags: tags, registering: register) { [self] task in
            guard let progress = call.options.progress else { return await planAndPerform(call, in: task) }
            return await ProgressReporter.$current.withValue(ProgressReporter(progress)) { await planAndPerform(call, in: task) }
        }
        let reply = try outcome.get()
        if let stream = reply.stream {
            let id = running.add(tags: tags) { stream.cancel() }
            let unregister = register { stream.cancel() }
            stream.onEnd { [running] in
                running.remove(id)
                unregister?()
            }
        }
        return reply
    }

    private func planAndPerform<Response>(_ call: APICall<Response>, in task: CallTask) async -> Result<APIReply<Response>, APIError> {
        await Result { () async throws(APIError) in
            guard !Task.isCancelled else { throw APIError(api: call.definition.name, reason: .cancelled) }
            guard !running.isClosed else { throw APIError(api: call.definition.name, reason: .cancelled, underlying: ManagerShutDown()) }
            return try await perform(plan(call), decoder: call.decoder, in: task)
        }
    }

    /// The stages of one planned call, in the order they run, within its deadline.
    func perform<Response>(_ plan: CallPlan, decoder: ResponseDecoder<Response>, in task: CallTask) async throws(APIError) -> APIReply<Response> {
        try await deadlines.enforce(plan.deadline, timeout: plan.timeout, api: plan.request.api, on: task) { () async throws(APIError) in
            // The deadline covers reading a streamed body too (a download), so that a server that
            // stops sending mid-body cannot hold the call forever.
            guard let caching = plan.cache else {
                let request = try await preparation.prepare(plan, context: plan.context)
                let response = try await send(plan, request).response
                invalidate(after: plan.definition)
                return try await decoder.reply(from: response, api: plan.request.api)
            }
            return try await performCached(plan, caching, decoder: decoder)
        }
    }

    /// The stages of a call whose API has a cache: the cache answers, or sends the call and keeps
    /// its reply. A function of its own, so that an uncached call's task holds none of its state.
    private func performCached<Response>(_ plan: CallPlan, _ caching: CallPlan.Caching, decoder: ResponseDecoder<Response>) async throws(APIError) -> APIReply<Response> {
        // Before the credentials are attached: a log-out after this, even one that comes while
        // the request is made, keeps the call from storing the account's reply.
        let mark = cache.store.removalMark
        var context = plan.context
        context.cacheLooksFirst = true
        let request = try await preparation.prepare(plan, context: context)
        return try await self.caching.run(plan, request, caching, mark: mark, decoder: decoder, fetch: send)
    }

    /// The duplicate gate and what follows it, for a call whose first attempt sends `first`.
    private func send(_ plan: CallPlan, _ first: OutgoingRequest) async throws(APIError) -> AnsweredRequest {
        // A credential the cache did not wait for is waited for now.
        let first = first.request.credentialIsPending ? try await preparation.prepare(plan, context: plan.context, validators: first.validators) : first
        if var missing = first.request.missingCredential {
            missing.lacksCredential = true
            throw missing
        }
        return try await duplicates.run(plan, first) { [self] plan, first async throws(APIError) in try await exchange(plan, first) }
    }

    /// Removes the cached replies a successful call of an API with `invalidates:` made stale: as
    /// soon as its protocol says it succeeded, before its reply is decoded.
    func invalidate(after definition: APIDefinition) {
        for tag in definition.invalidates { cache.removeAll(tagged: tag) }
    }

    /// `perform` for a request whose reply its caller reads (a JSON-RPC batch).
    func perform(_ plan: CallPlan, in task: CallTask) async throws(APIError) -> APIResponse {
        try await deadlines.enforce(plan.deadline, timeout: plan.timeout, api: plan.request.api, on: task) { () async throws(APIError) in
            try await send(plan, preparation.prepare(plan, context: plan.context)).response
        }
    }

    /// What callers of a coalesced call share: attempt after attempt, each through the rate
    /// limit, the interceptors and the transport; then the protocol's unwrapping. Each attempt
    /// after the first sends its request made anew. A credential that replaced the one before it
    /// at an interceptor's request (a refreshed token: the same fields, other values) joins that
    /// one's account, so that the cache keeps the account's replies together across refreshes.
    private func exchange(_ plan: CallPlan, _ first: OutgoingRequest) async throws(APIError) -> AnsweredRequest {
        var exchange = try await attempts.run(plan, first: first) { [self] previous, context, askedByInterceptor async throws(APIError) in
            let next = try await preparation.prepare(plan, context: context, validators: first.validators)
            if let missing = next.request.missingCredential { throw missing }
            if askedByInterceptor, next.request.account == nil { linkRefreshedCredentials(of: next, to: previous) }
            return next
        } attempt: { [self] request, context async throws(APIError) in
            try await rateLimiter.admit(plan)
            return try await interceptors.run(request.request, context: context) { () async throws(APIError) in
                try await transports.send(request.request, plan: plan)
            }
        }
        // A revalidation's 304 goes back to the cache as it is.
        guard !(exchange.request.isRevalidation && exchange.response.httpStatus?.code == 304) else { return exchange }
        exchange.response = try plan.unwrap(exchange.response)
        return exchange
    }

    /// Joins the credentials of `next`, sent again at an interceptor's request, to the account of
    /// those of `previous` when they replace them (a refreshed token). Whatever the API: a token
    /// refreshed on a call the cache does not see is the account's next token all the same, and a
    /// log-out by it must find the replies stored under the ones before. A call no stage compares
    /// has no credentials worked out; they are read from its fields here, on this rare path.
    private func linkRefreshedCredentials(of next: OutgoingRequest, to previous: OutgoingRequest) {
        guard let before = previous.credentials ?? Credentials(previous.request.head),
            let after = next.credentials ?? Credentials(next.request.head), after.replace(before)
        else { return }
        cache.link(after, to: cache.account(of: before))
    }

    /// Request ids for RPC calls: unique among this manager's calls, never reused.
    func nextRequestID() -> Int {
        requestIDs.withLockedValue { id in
            id += 1
            return id
        }
    }
}
