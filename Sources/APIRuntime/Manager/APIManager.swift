import Foundation
import NIOConcurrencyHelpers

/// Sends every API. One `shared` instance serves an app; tests make their own and shut them down.
///
/// For each call, in order: the frequency policy (allow, reject or coalesce identical calls in
/// flight), then attempt after attempt as the retry policy allows, each one through the rate
/// limit and the global interceptors to the transport of its kind (or to a stub), then the
/// protocol's unwrapping. All of it within the call's one deadline.
public final class APIManager: Sendable {
    public struct Configuration: Sendable {
        /// Overrides the workspace's `maxConnectionsPerHost` for every session this manager creates.
        public var maxConnectionsPerHost: Int?
        /// The most sessions (one transport per host) kept open; the least recently used one
        /// closes first, once its calls in flight have finished.
        public var maxSessions = 64
        /// The message of the error a call gets when the `reject` policy refuses it.
        public var duplicateRequestMessage = "an identical request is already in flight"
        /// Base URLs to use instead of the ones the manifests declare, keyed by the declared URL:
        /// point a whole workspace at staging, or at a test server on loopback.
        public var baseURLOverrides: [String: String] = [:]
        /// How long opening a connection may take, for transports that take it.
        public var connectTimeout: Duration = .seconds(10)
        /// Replies larger than this fail with `invalidResponse` instead of exhausting memory.
        public var maxResponseBytes = 64 * 1024 * 1024
        /// Which redirects HTTP calls follow, and what they keep on the way: by default up to
        /// five, never from https to http, credential headers dropped across origins.
        public var redirects: RedirectPolicy = .standard
        /// Trust roots, pins and client certificates, by host name (`api.example.com`); hosts
        /// not listed trust the system's roots and present no certificate.
        public var tls: [String: TLSSettings] = [:]
        /// The transport of REST, JSON-RPC and custom RPC calls: URLSession unless set
        /// (`.asyncHTTPClient` from the `APIAsyncHTTPClient` product is the choice for servers).
        public var httpTransport: TransportFactory = .urlSession
        /// The transport of gRPC calls; nil uses the one gRPC APIs bring (`APIGRPC`'s `.grpc`).
        public var grpcTransport: TransportFactory?
        /// Run around every call of every kind, the first outermost (logging, auth, metrics…).
        public var interceptors: [any APIInterceptor] = []
        /// For APIs whose manifest (API or workspace) sets none.
        public var timeout: Duration = .seconds(60)
        /// For APIs whose manifest (API or workspace) sets none.
        public var frequency: FrequencyPolicy = .allow
        /// For APIs whose manifest (API or workspace) sets none.
        public var retry: RetryPolicy = .none
        /// For APIs whose manifest (API or workspace) sets none; nil means no limit.
        public var rateLimit: RateLimit?
        /// Canned answers instead of the network, for tests and previews.
        public var stubs: StubSet?

        public init() {}
    }

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

    public let configuration: Configuration
    private let sessions: SessionCache
    private let inFlight = InFlightRequests()
    let rateLimiter = RateLimiter()
    let running = RunningCalls()
    /// Cancels each call's task when its deadline passes.
    let deadlines = DeadlineTimer()
    private let requestIDs = NIOLockedValueBox(0)
    private let chain: InterceptorChain

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.chain = InterceptorChain(interceptors: configuration.interceptors)
        self.sessions = SessionCache(capacity: configuration.maxSessions, configuration: configuration)
    }

    /// The number of sessions this manager holds open.
    public var sessionCount: Int { sessions.count }

    /// The number of calls under the `reject` or `coalesce` policy that are on the wire right now.
    public var inFlightCount: Int { inFlight.count }

    /// Callers waiting on coalesced calls right now.
    var coalescedWaiterCount: Int { inFlight.waiterCount }

    /// Cancels every running call tagged `tag` (by its manifest's `tags:` or its instance's
    /// `tags`), open reply streams and JSON-RPC batches included; returns how many were cancelled.
    @discardableResult
    public func cancel(tag: String) -> Int { running.cancel(tag: tag) }

    /// Cancels every running call, open reply streams and JSON-RPC batches included; returns how
    /// many were cancelled.
    @discardableResult
    public func cancelAll() -> Int { running.cancel(tag: nil) }

    /// Refuses new calls at once, lets the calls in flight (reply streams included) finish for up
    /// to `gracePeriod`, cancels those still running after it, then closes every session.
    public func shutdown(gracePeriod: Duration = .seconds(30)) async {
        running.close()
        let grace = gracePeriod.clampedForWaiting
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [running] in
                await running.idle()
                return true
            }
            group.addTask {
                do {
                    try await Task.sleep(for: grace)
                    return false
                } catch {
                    return true
                }
            }
            if await group.next() == false {
                running.cancel(tag: nil)
            }
            // Stops the sleep once idle; otherwise waits for the cancelled calls to end.
            group.cancelAll()
        }
        await sessions.shutdown()
    }

    // MARK: Sending

    /// Runs `work` in a task of its own, registered under `tags` until it ends, so that
    /// `cancel(tag:)` and `cancelAll()` can cancel it without cancelling its caller; cancelling
    /// the caller cancels it too.
    func run<Value: Sendable>(
        tags: Set<String>,
        registering register: (_ cancel: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? = { _ in nil },
        _ work: @escaping @Sendable (CallTask) async -> Value
    ) async -> Value {
        let call = CallTask()
        let task = Task.immediateIfAvailable { await work(call) }
        call.attach { task.cancel() }
        let id = running.add(tags: tags, cancel: call.cancel)
        let unregister = register(call.cancel)
        defer {
            running.remove(id)
            unregister?()
        }
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            call.cancel()
        }
    }

    func perform<Response>(_ api: BaseAPI<Response>, in task: CallTask) async throws(APIError) -> APIReply<Response> {
        let definition = api.definition
        guard !Task.isCancelled else { throw APIError(api: definition.name, reason: .cancelled) }
        guard !running.isClosed else { throw APIError(api: definition.name, reason: .cancelled, underlying: ManagerShutDown()) }
        let delegate = api.rpcDelegate
        var wrapped = try api.makeRequest(for: self)
        wrapped.streamsResponseBody = api.responseDecoder.streamsBody
        let kind = delegate?.kind ?? .rest
        let transport = try transport(for: kind, delegate: delegate, request: wrapped)
        // The identity of a call is what the API was asked, before a delegate adds its envelope:
        // a JSON-RPC id differs on every call and would make every call look new. Streaming gRPC
        // calls and streamed bodies are always allowed: a request stream has no identity to
        // compare, and a reply stream has one reader, so it cannot be shared.
        let streams = wrapped.messageProducer != nil || wrapped.streamedBody != nil || wrapped.streamsResponse || wrapped.streamsResponseBody
        let frequency = streams ? .allow : definition.frequency ?? definition.defaults.frequency ?? configuration.frequency
        let identity = frequency == .allow ? nil : CallIdentity.key(for: wrapped, definition: definition, kind: kind.description)
        let needsID = kind != .grpc && definition.rpc?.isNotification != true
        let call = delegate.map { _ in RPCCall(definition: definition, id: needsID ? nextRequestID() : nil) }
        if let delegate, let call { try delegate.wrap(&wrapped, for: call) }

        let context = APICallContext(definition: definition, rpc: call, kind: kind, attempt: 1, declaredBaseURL: declaredBaseURL(of: definition))
        wrapped.deadline = .after(wrapped.timeout)
        let request = wrapped
        let deadline = request.deadline
        // The exchange unwraps its reply with its own call, so that callers sharing it (coalesced)
        // get the result without checking it against ids they never sent.
        let exchange = { @Sendable [self, request] () async throws(APIError) -> APIResponse in
            let response = try await attempts(request, context: context, transport: transport, deadline: deadline)
            return try Self.unwrap(response, delegate: delegate, call: call, definition: definition)
        }
        let decoder = api.responseDecoder
        // Local functions rather than closures: nothing is allocated for them on each call.
        func send() async throws(APIError) -> APIResponse {
            try await execute(exchange, api: request.api, identity: identity.map { ($0, frequency) }, deadline: deadline, timeout: request.timeout)
        }
        func decode(_ response: APIResponse) async throws(APIError) -> APIReply<Response> {
            let value = try await decoder.decode(response.body, response: response, api: definition.name)
            // A decoded value that goes on after the call (an event stream) stays cancellable.
            let stream = response.stream ?? (decoder.streamsBody ? (value as? any StreamingReply)?.replyStream : nil)
            return APIReply(value: value, headerFields: response.headerFields, trailerFields: response.trailerFields, stream: stream)
        }
        guard decoder.streamsBody else {
            return try await decode(withDeadline(deadline, timeout: request.timeout, api: request.api, in: task, operation: send))
        }
        // The deadline covers reading a streamed body too (a download), so that a server that
        // stops sending mid-body cannot hold the call forever.
        return try await withDeadline(deadline, timeout: request.timeout, api: request.api, in: task) { () async throws(APIError) in
            try await decode(send())
        }
    }

    /// The base URL `definition` declares, its own or its workspace's, mapped by `baseURLOverrides`.
    func declaredBaseURL(of definition: APIDefinition) -> String? {
        (definition.baseURL ?? definition.defaults.baseURL).map { configuration.baseURLOverrides[$0] ?? $0 }
    }

    /// Sends a request made outside `perform` (a JSON-RPC batch) attempt after attempt, through
    /// the rate limits of `members` and the interceptors, within its timeout.
    func send(_ request: APIRequest, context: APICallContext, members: [APIDefinition], in task: CallTask) async throws(APIError) -> APIResponse {
        let transport = try transport(for: context.kind, delegate: nil, request: request)
        var request = request
        request.deadline = .after(request.timeout)
        let deadline = request.deadline
        return try await withDeadline(deadline, timeout: request.timeout, api: request.api, in: task) { [self, request] () async throws(APIError) in
            for member in members {
                if let limit = member.rateLimit, limit.scope == .api {
                    try await rateLimiter.acquire(limit, key: "api:" + member.name, api: request.api, deadline: deadline)
                }
            }
            return try await attempts(request, context: context, transport: transport, deadline: deadline)
        }
    }

    /// The response with its body replaced by the result its protocol unwraps.
    private static func unwrap(_ response: APIResponse, delegate: (any RPCDelegate)?, call: RPCCall?, definition: APIDefinition) throws(APIError) -> APIResponse {
        var unwrapped = response
        if let delegate, let call, !call.isNotification {
            unwrapped.body = try delegate.unwrap(response, for: call)
        } else {
            // REST, and notifications, which await no reply: only the HTTP status counts.
            unwrapped.body = try RESTProtocol.unwrap(response, for: definition)
        }
        return unwrapped
    }

    /// The transport factory of a call's kind: the configuration's, else the protocol's own.
    func transport(for kind: CallKind, delegate: (any RPCDelegate)?, request: APIRequest) throws(APIError) -> TransportFactory {
        let configured = kind == .grpc ? configuration.grpcTransport : configuration.httpTransport
        guard let factory = configured ?? delegate?.defaultTransport else {
            throw APIError(api: request.api, reason: .invalidRequest(message: "no transport for \(kind) calls: set APIManager.Configuration.grpcTransport"))
        }
        return factory
    }

    /// Request ids for RPC calls: unique among this manager's calls, never reused.
    func nextRequestID() -> Int {
        requestIDs.withLockedValue { id in
            id += 1
            return id
        }
    }

    /// Runs one call's exchange under the frequency policy: with an `identity`, an identical call
    /// in flight makes this one fail at once (`reject`) or share that call's outcome (`coalesce`).
    private func execute(
        _ exchange: @escaping @Sendable () async throws(APIError) -> APIResponse,
        api: String, identity: (key: String, policy: FrequencyPolicy)?,
        deadline: ContinuousClock.Instant, timeout: Duration
    ) async throws(APIError) -> APIResponse {
        guard let identity else {
            return try await exchange()
        }
        switch inFlight.admit(identity.key, coalescing: identity.policy == .coalesce) {
        case .rejected:
            throw APIError(api: api, reason: .duplicateRequest(message: configuration.duplicateRequestMessage))
        case .follower(let shared):
            return try await join(shared, exchange, api: api, identity: identity, deadline: deadline, timeout: timeout)
        case .leader(let shared) where identity.policy == .reject:
            let outcome = await Result(catching: exchange)
            inFlight.finish(identity.key, shared, with: outcome)
            return try outcome.get()
        case .leader(let shared):
            // The call runs on its own, within the leader's deadline, so that cancelling the
            // caller who started it does not cancel the others waiting for it; it stops only when
            // every waiter has gone.
            let call = CallTask()
            let work = Task { [self, inFlight] in
                let outcome = await Result { () async throws(APIError) in
                    try await withDeadline(deadline, timeout: timeout, api: api, in: call, operation: exchange)
                }
                inFlight.finish(identity.key, shared, with: outcome)
            }
            call.attach { work.cancel() }
            shared.cancelWhenAbandoned(work) { [inFlight] in inFlight.abandon(identity.key, shared) }
            return try await join(shared, exchange, api: api, identity: identity, deadline: deadline, timeout: timeout)
        }
    }

    /// Waits for a shared call's outcome. A caller is counted once it waits, so the others may all
    /// leave before it is, and the call is then cancelled as abandoned: a caller that is not
    /// cancelled itself starts the call afresh instead of taking that cancellation for its own.
    private func join(
        _ shared: SharedCall, _ exchange: @escaping @Sendable () async throws(APIError) -> APIResponse,
        api: String, identity: (key: String, policy: FrequencyPolicy),
        deadline: ContinuousClock.Instant, timeout: Duration
    ) async throws(APIError) -> APIResponse {
        let outcome = await shared.wait(api: api)
        if case .failure(let error) = outcome, error.reason == .cancelled, shared.wasAbandoned, !Task.isCancelled {
            return try await execute(exchange, api: api, identity: identity, deadline: deadline, timeout: timeout)
        }
        return try outcome.get()
    }

    /// Attempt after attempt, as the retry policy allows, until the call's deadline.
    private func attempts(
        _ request: APIRequest, context: APICallContext, transport: TransportFactory, deadline: ContinuousClock.Instant
    ) async throws(APIError) -> APIResponse {
        let definition = context.definition
        let policy = definition.retry ?? definition.defaults.retry ?? configuration.retry
        // A body read once cannot be sent again.
        let retries = policy.allows(definition) && request.streamedBody?.iterationBehavior != .single
        var context = context
        var random = SystemRandomNumberGenerator()
        while true {
            let outcome = await attempt(request, context: context, transport: transport, deadline: deadline)
            guard retries, context.attempt < policy.maxAttempts, policy.isRetryable(outcome) else {
                return try outcome.get()
            }
            let pause = policy.delay(after: context.attempt, response: try? outcome.get(), random: &random)
            guard ContinuousClock.Instant.after(pause) < deadline else { return try outcome.get() }
            do {
                try await Task.sleep(for: pause.clampedForWaiting)
            } catch {
                throw APIError(api: request.api, reason: .cancelled, underlying: error)
            }
            context.attempt += 1
        }
    }

    /// One attempt: the rate limit, then the interceptors, then a stub or the session's transport.
    private func attempt(
        _ request: APIRequest, context: APICallContext, transport: TransportFactory, deadline: ContinuousClock.Instant
    ) async -> Result<APIResponse, APIError> {
        await Result { () async throws(APIError) in
            let definition = context.definition
            if let limit = definition.rateLimit ?? definition.defaults.rateLimit ?? configuration.rateLimit {
                let key = limit.scope == .api ? "api:" + definition.name : "host:" + (SessionKey(request, transport: "")?.description ?? "")
                try await rateLimiter.acquire(limit, key: key, api: request.api, deadline: deadline)
            }
            return try await chain.run(request, context: context) { (wire: APIRequest) async throws(APIError) -> APIResponse in
                try await self.send(wire, definition: definition, transport: transport)
            }
        }
    }

    /// The end of the chain: a stub when one is set for the API, else the session's transport.
    private func send(_ request: APIRequest, definition: APIDefinition, transport factory: TransportFactory) async throws(APIError) -> APIResponse {
        if let stub = configuration.stubs?.stub(for: request, definition: definition) {
            if stub.delay > .zero {
                do {
                    try await Task.sleep(for: stub.delay.clampedForWaiting)
                } catch {
                    throw APIError(api: request.api, reason: .cancelled, underlying: error)
                }
            }
            return stub.response()
        }
        guard let key = SessionKey(request, transport: factory.name) else {
            throw APIError(api: request.api, reason: .invalidRequest(message: "'\(request.url)' has no scheme or host"))
        }
        guard factory.schemes.contains(key.scheme) else {
            let schemes = factory.schemes.sorted().joined(separator: ", ")
            throw APIError(api: request.api, reason: .invalidRequest(
                message: "'\(request.url)' is not a URL the \(factory.name) transport can reach (\(schemes))"
            ))
        }
        let settings = SessionSettings(
            maxConnectionsPerHost: configuration.maxConnectionsPerHost ?? definition.defaults.maxConnectionsPerHost,
            connectTimeout: configuration.connectTimeout,
            tls: configuration.tls[key.host] ?? .standard
        )
        let lease: SessionCache.Lease
        do {
            guard let acquired = try sessions.acquire(key, settings: settings, factory: factory) else {
                throw APIError(api: request.api, reason: .cancelled, underlying: ManagerShutDown())
            }
            lease = acquired
        } catch let error as APIError {
            throw error
        } catch let error as TLSFailure {
            throw APIError(api: request.api, reason: .tls(error), underlying: error)
        } catch {
            throw APIError(api: request.api, reason: .invalidRequest(message: "cannot make a \(factory.name) transport for \(key): \(error)"), underlying: error)
        }
        defer { sessions.release(lease) }
        return try await lease.transport.send(request)
    }
}

/// The underlying error of calls made after `APIManager.shutdown()`.
public struct ManagerShutDown: Error, CustomStringConvertible {
    public var description: String { "the API manager has been shut down" }
}

/// `APIManager.shared`, made once from the configuration `bootstrap` gave.
final class SharedManager: Sendable {
    static let instance = SharedManager()

    private enum State {
        case configuring(APIManager.Configuration, bootstrapped: Bool)
        case made(APIManager)
    }

    /// Guards the configuration until the manager is made, then the manager.
    private let state = NIOLockedValueBox(State.configuring(APIManager.Configuration(), bootstrapped: false))

    var manager: APIManager {
        state.withLockedValue { state in
            switch state {
            case .made(let manager):
                return manager
            case .configuring(let configuration, _):
                let manager = APIManager(configuration: configuration)
                state = .made(manager)
                return manager
            }
        }
    }

    func bootstrap(_ configure: (inout APIManager.Configuration) -> Void) {
        state.withLockedValue { state in
            switch state {
            case .configuring(var configuration, bootstrapped: false):
                configure(&configuration)
                state = .configuring(configuration, bootstrapped: true)
            case .configuring(_, bootstrapped: true):
                preconditionFailure("APIManager.bootstrap may be called only once")
            case .made:
                preconditionFailure("APIManager.bootstrap must be called before APIManager.shared is first used")
            }
        }
    }
}
