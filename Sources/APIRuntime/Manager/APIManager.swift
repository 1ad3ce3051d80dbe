import Foundation
import NIOConcurrencyHelpers

/// Sends every API. One `shared` instance serves an app; tests make their own and shut them down.
///
/// For each call, in order: the frequency policy (allow, reject or coalesce identical calls in
/// flight), then attempt after attempt as the retry policy allows, each one through the rate
/// limit and the global interceptors to the session of its base URL (or to a stub).
public final class APIManager: Sendable {
    public struct Configuration: Sendable {
        /// Overrides the workspace's `maxConnectionsPerHost` for every session this manager creates.
        public var maxConnectionsPerHost: Int?
        /// The most sessions (HTTP clients) kept open; the least recently used one closes first,
        /// once its calls in flight have finished.
        public var maxSessions = 64
        /// The message of the error a call gets when the `reject` policy refuses it.
        public var duplicateRequestMessage = "an identical request is already in flight"
        /// Base URLs to use instead of the ones the manifests declare, keyed by the declared URL:
        /// point a whole workspace at staging, or at a test server on loopback.
        public var baseURLOverrides: [String: String] = [:]
        /// How long opening a connection may take. A refused connection is retried until then.
        public var connectTimeout: Duration = .seconds(10)
        /// Replies larger than this fail with `invalidResponse` instead of exhausting memory.
        public var maxResponseBytes = 64 * 1024 * 1024
        /// Makes the transport of a new session; nil means `APITransports.StandardTransports`
        /// (AsyncHTTPClient, or grpc-swift for `grpc://` and `grpcs://`), found at run time
        /// (`TransportProvider`). Inject one to unit-test the manager's own logic (wire behaviour
        /// is tested against real servers).
        public var transportFactory: (@Sendable (SessionKey, SessionSettings) -> any HTTPTransport)?
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

    /// The manager generated APIs use unless an instance is given another.
    public static let shared = APIManager()

    public let configuration: Configuration
    private let sessions: SessionCache
    private let inFlight = InFlightRequests()
    private let rateLimiter = RateLimiter()
    let running = RunningCalls()
    private let requestIDs = NIOLockedValueBox(0)
    private let chain: InterceptorChain

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.chain = InterceptorChain(interceptors: configuration.interceptors)
        self.sessions = SessionCache(capacity: configuration.maxSessions, factory: configuration.transportFactory ?? { [configuration] key, settings in
            StandardTransportLookup.transport(for: key, settings: settings, configuration: configuration)
        })
    }

    /// The number of sessions this manager holds open.
    public var sessionCount: Int { sessions.count }

    /// The number of calls under the `reject` or `coalesce` policy that are on the wire right now.
    public var inFlightCount: Int { inFlight.count }

    /// Callers waiting on coalesced calls right now.
    var coalescedWaiterCount: Int { inFlight.waiterCount }

    /// Cancels every running call tagged `tag` (by its manifest's `tags:` or its instance's
    /// `tags`); returns how many were cancelled.
    @discardableResult
    public func cancel(tag: String) -> Int { running.cancel(tag: tag) }

    /// Cancels every running call; returns how many were cancelled.
    @discardableResult
    public func cancelAll() -> Int { running.cancel(tag: nil) }

    /// Refuses new calls and closes every session once its calls in flight have finished.
    public func shutdown() async {
        await sessions.shutdown()
    }

    deinit {
        // A manager dropped without `shutdown()` still closes its sessions, in the background.
        let sessions = self.sessions
        Task { await sessions.shutdown() }
    }

    // MARK: Sending

    func perform<Response>(_ api: BaseAPI<Response>) async throws(APIError) -> APIReply<Response> {
        let definition = api.definition
        let delegate = api.rpcDelegate
        var request = try api.makeRequest(for: self)
        let kind = delegate?.kind ?? "rest"
        // The identity of a call is what the API was asked, before a delegate adds its envelope:
        // a JSON-RPC id differs on every call and would make every call look new. Streaming gRPC
        // calls are always allowed: a request stream has no identity to compare, and a reply
        // stream has one reader, so it cannot be shared.
        let streams = request.messageProducer != nil || request.streamsResponse
        let frequency = streams ? .allow : definition.frequency ?? definition.defaults.frequency ?? configuration.frequency
        let identity = frequency == .allow ? nil : CallIdentity.key(for: request, definition: definition, kind: kind)
        let call = delegate.map { _ in RPCCall(definition: definition, id: definition.rpc?.isNotification == true ? nil : nextRequestID()) }
        if let delegate, let call { try delegate.wrap(&request, for: call) }

        let context = APICallContext(definition: definition, rpc: call, kind: kind, attempt: 1)
        let response = try await execute(request, context: context, identity: identity.map { ($0, frequency) })
        response.messages?.callTimeout = request.timeout

        let result: Data
        if let delegate, let call, !call.isNotification {
            result = try delegate.unwrap(response, for: call)
        } else {
            // REST, and notifications, which await no reply: only the HTTP status counts.
            result = try RESTProtocol.unwrap(response, for: definition)
        }
        let value = try api.responseDecoder.decode(result, response: response, api: definition.name)
        return APIReply(value: value, headerFields: response.headerFields, trailerFields: response.trailerFields)
    }

    /// Request ids for RPC calls: unique among this manager's calls, never reused.
    func nextRequestID() -> Int {
        requestIDs.withLockedValue { id in
            id += 1
            return id
        }
    }

    /// Sends one wire request under the frequency policy: with an `identity`, an identical call
    /// in flight makes this one fail at once (`reject`) or share that call's outcome (`coalesce`).
    func execute(_ request: APIRequest, context: APICallContext, identity: (key: String, policy: FrequencyPolicy)?) async throws(APIError) -> APIResponse {
        guard let identity else {
            return try await attempts(request, context: context)
        }
        switch inFlight.admit(identity.key, coalescing: identity.policy == .coalesce) {
        case .rejected:
            throw APIError(api: request.api, reason: .duplicateRequest(message: configuration.duplicateRequestMessage))
        case .follower(let shared):
            let outcome = await shared.wait(api: request.api)
            // Joined a call that every earlier caller had just abandoned: start afresh.
            if case .failure(let error) = outcome, error.reason == .cancelled, shared.wasAbandoned, !CallCancellation.isCancelled {
                return try await execute(request, context: context, identity: identity)
            }
            return try outcome.get()
        case .leader(let shared) where identity.policy == .reject:
            let outcome: Result<APIResponse, APIError>
            do {
                outcome = .success(try await attempts(request, context: context))
            } catch {
                outcome = .failure(error)
            }
            inFlight.finish(identity.key, shared, with: outcome)
            return try outcome.get()
        case .leader(let shared):
            // The call runs on its own, so that cancelling the caller who started it does not
            // cancel the others waiting for it; it stops only when every waiter has gone. (Nor may
            // that caller's `cancel()`, so the task does not inherit its `CallCancellation`.)
            let work = Task { [self] in
                let outcome = await CallCancellation.$current.withValue(nil) {
                    await Result { () async throws(APIError) in try await attempts(request, context: context) }
                }
                inFlight.finish(identity.key, shared, with: outcome)
            }
            shared.cancelWhenAbandoned(work) { [inFlight] in inFlight.abandon(identity.key, shared) }
            return try await shared.wait(api: request.api).get()
        }
    }

    /// Attempt after attempt, as the retry policy allows, within the request's timeout.
    private func attempts(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIResponse {
        let definition = context.definition
        let policy = definition.retry ?? definition.defaults.retry ?? configuration.retry
        let retries = policy.allows(definition)
        let clock = ContinuousClock()
        let deadline = clock.now + request.timeout
        var context = context
        var random = SystemRandomNumberGenerator()
        while true {
            let outcome = await attempt(request, context: context, deadline: deadline)
            guard retries, context.attempt < policy.maxAttempts, policy.isRetryable(outcome) else {
                return try outcome.get()
            }
            let pause = policy.delay(after: context.attempt, response: try? outcome.get(), random: &random)
            guard clock.now + pause < deadline else { return try outcome.get() }
            do {
                try await CallCancellation.sleep(for: pause)
            } catch {
                throw APIError(api: request.api, reason: .cancelled, underlying: error)
            }
            context.attempt += 1
        }
    }

    /// One attempt: the rate limit, then the interceptors, then a stub or the session's transport.
    private func attempt(_ request: APIRequest, context: APICallContext, deadline: ContinuousClock.Instant) async -> Result<APIResponse, APIError> {
        var attempt = request
        attempt.timeout = deadline - ContinuousClock.now
        do throws(APIError) {
            guard attempt.timeout > .zero else {
                throw APIError(api: request.api, reason: .timeout(request.timeout))
            }
            let definition = context.definition
            if let limit = definition.rateLimit ?? definition.defaults.rateLimit ?? configuration.rateLimit {
                let key = limit.scope == .api ? "api:" + definition.name : "host:" + (SessionKey(request)?.description ?? "")
                try await rateLimiter.acquire(limit, key: key, api: request.api, deadline: deadline)
            }
            return .success(try await chain.run(attempt, context: context) { (wire: APIRequest) async throws(APIError) -> APIResponse in
                try await self.send(wire, definition: definition)
            })
        } catch where error.reason == .timeout(attempt.timeout) {
            // The attempt ran out of what was left of the call's time: the call timed out.
            return .failure(APIError(api: error.api, reason: .timeout(request.timeout), underlying: error.underlying))
        } catch {
            return .failure(error)
        }
    }

    /// The end of the chain: a stub when one is set for the API, else the session's transport.
    private func send(_ request: APIRequest, definition: APIDefinition) async throws(APIError) -> APIResponse {
        if let stub = configuration.stubs?.stub(for: request, definition: definition) {
            if stub.delay > .zero {
                do {
                    try await CallCancellation.sleep(for: stub.delay)
                } catch {
                    throw APIError(api: request.api, reason: .cancelled, underlying: error)
                }
            }
            return stub.response()
        }
        guard let key = SessionKey(request) else {
            throw APIError(api: request.api, reason: .invalidRequest(message: "'\(request.url)' has no scheme or host"))
        }
        let settings = SessionSettings(
            maxConnectionsPerHost: configuration.maxConnectionsPerHost ?? definition.defaults.maxConnectionsPerHost
        )
        guard let lease = sessions.acquire(key, settings: settings) else {
            throw APIError(api: request.api, reason: .cancelled, underlying: ManagerShutDown())
        }
        defer { sessions.release(lease) }
        let transport = lease.transport
        guard !transport.observesCallCancellation, CallCancellation.current != nil else {
            return try await transport.send(request)
        }
        // Only a task's cancellation stops this transport: a task of its own, which the call's
        // cancellation cancels.
        return try await CallCancellation.inTask {
            await Result { () async throws(APIError) in try await transport.send(request) }
        }.get()
    }
}

/// The underlying error of calls made after `APIManager.shutdown()`.
public struct ManagerShutDown: Error, CustomStringConvertible {
    public var description: String { "the API manager has been shut down" }
}
