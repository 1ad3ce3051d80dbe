import Foundation
import NIOConcurrencyHelpers

/// Sends every API. One `shared` instance serves an app; tests make their own and shut them down.
///
/// The manager keeps one session (an HTTP client with its own connection pool) per base URL,
/// applies each API's frequency policy, and runs the protocol's `rpcDelegate` around the transport.
public final class APIManager: Sendable {
    public struct Configuration: Sendable {
        /// Overrides the workspace's `maxConnectionsPerHost` for every session this manager creates.
        public var maxConnectionsPerHost: Int?
        /// The message of the error a call gets when the `reject` policy refuses it.
        public var duplicateRequestMessage = "an identical request is already in flight"
        /// Base URLs to use instead of the ones the manifests declare, keyed by the declared URL:
        /// point a whole workspace at staging, or at a test server on loopback.
        public var baseURLOverrides: [String: String] = [:]
        /// How long opening a connection may take. A refused connection is retried until then.
        public var connectTimeout: Duration = .seconds(10)
        /// Replies larger than this fail with `invalidResponse` instead of exhausting memory.
        public var maxResponseBytes = 64 * 1024 * 1024
        /// Makes the transport of a new session; nil means AsyncHTTPClient. Inject one to unit-test
        /// the manager's own logic (wire behaviour is tested against real servers).
        public var transportFactory: (@Sendable (SessionKey, SessionSettings) -> any HTTPTransport)?
        /// Run around every call of every kind, the first outermost (logging, auth, metrics…).
        public var interceptors: [any APIInterceptor] = []
        /// Retries for APIs whose manifest (API or workspace) sets none.
        public var retry: RetryPolicy = .none

        public init() {}
    }

    /// The manager generated APIs use unless an instance is given another.
    public static let shared = APIManager()

    public let configuration: Configuration
    private let sessions: SessionCache
    private let inFlight = InFlightRequests()
    private let requestIDs = NIOLockedValueBox(0)
    private let chain: InterceptorChain

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.chain = InterceptorChain(interceptors: configuration.interceptors)
        self.sessions = SessionCache(factory: configuration.transportFactory ?? { [configuration] _, settings in
            AsyncHTTPClientTransport(settings: settings, configuration: configuration)
        })
    }

    /// The number of sessions (base URLs) this manager holds open.
    public var sessionCount: Int { sessions.count }

    /// The number of calls under the `reject` policy that are on the wire right now.
    public var inFlightCount: Int { inFlight.count }

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

    func perform<Parameters, Response>(_ api: BaseAPI<Parameters, Response>) async throws(APIError) -> Response {
        let definition = api.definition
        let delegate = api.rpcDelegate
        var request = try api.makeRequest(for: self)
        // The identity of a call is what the API was asked, before a delegate adds its envelope:
        // a JSON-RPC id differs on every call and would make every call look new.
        let identity = (definition.frequency ?? definition.defaults.frequency) == .reject ? InFlightRequests.key(for: request) : nil
        let call = delegate.map { _ in RPCCall(definition: definition, id: definition.rpc?.isNotification == true ? nil : nextRequestID()) }
        if let delegate, let call { try delegate.wrap(&request, for: call) }

        let kind = delegate == nil ? "rest" : delegate is JSONRPC ? "jsonrpc" : "rpc"
        let context = APICallContext(definition: definition, rpc: call, kind: kind, attempt: 1)
        let response = try await execute(request, context: context, identity: identity)

        let result: Data
        if let delegate, let call, !call.isNotification {
            result = try delegate.unwrap(response, for: call)
        } else {
            // REST, and notifications, which await no reply: only the HTTP status counts.
            result = try RESTProtocol.unwrap(response, for: definition)
        }
        return try api.responseDecoder.decode(result, headerFields: response.headerFields, api: definition.name)
    }

    /// Request ids for RPC calls: unique among this manager's calls, never reused.
    func nextRequestID() -> Int {
        requestIDs.withLockedValue { id in
            id += 1
            return id
        }
    }

    /// Sends one wire request: through the frequency policy, then attempt after attempt (as the
    /// retry policy allows, within the request's timeout) through the interceptors to the
    /// session of its base URL. With an `identity` (the `reject` policy), an identical call in
    /// flight makes this one fail at once.
    func execute(_ request: APIRequest, context: APICallContext, identity: String?) async throws(APIError) -> APIResponse {
        let definition = context.definition
        guard let key = SessionKey(request) else {
            throw APIError(api: request.api, reason: .invalidRequest(message: "'\(request.url)' has no scheme or host"))
        }
        let settings = SessionSettings(
            maxConnectionsPerHost: configuration.maxConnectionsPerHost ?? definition.defaults.maxConnectionsPerHost
        )
        guard let transport = sessions.transport(for: key, settings: settings) else {
            throw APIError(api: request.api, reason: .cancelled, underlying: ManagerShutDown())
        }
        if let identity {
            guard inFlight.begin(identity) else {
                throw APIError(api: request.api, reason: .duplicateRequest(message: configuration.duplicateRequestMessage))
            }
        }
        // `defer` runs on every way out: success, error, timeout and cancellation alike.
        defer { if let identity { inFlight.end(identity) } }

        let policy = definition.retry ?? definition.defaults.retry ?? configuration.retry
        let retries = policy.allows(definition)
        let clock = ContinuousClock()
        let deadline = clock.now + request.timeout
        var context = context
        var random = SystemRandomNumberGenerator()
        while true {
            var attempt = request
            attempt.timeout = deadline - clock.now
            guard attempt.timeout > .zero else {
                throw APIError(api: request.api, reason: .timeout(request.timeout))
            }
            let outcome: Result<APIResponse, APIError>
            do {
                outcome = .success(try await chain.run(attempt, context: context, transport: transport))
            } catch where error.reason == .timeout(attempt.timeout) {
                // The attempt ran out of what was left of the call's time: the call timed out.
                outcome = .failure(APIError(api: error.api, reason: .timeout(request.timeout), underlying: error.underlying))
            } catch {
                outcome = .failure(error)
            }
            guard retries, context.attempt < policy.maxAttempts, policy.isRetryable(outcome) else {
                return try outcome.get()
            }
            let pause = policy.delay(after: context.attempt, response: try? outcome.get(), random: &random)
            guard clock.now + pause < deadline else { return try outcome.get() }
            do {
                try await Task.sleep(for: pause)
            } catch {
                throw APIError(api: request.api, reason: .cancelled, underlying: error)
            }
            context.attempt += 1
        }
    }
}

/// The underlying error of calls made after `APIManager.shutdown()`.
public struct ManagerShutDown: Error, CustomStringConvertible {
    public var description: String { "the API manager has been shut down" }
}
