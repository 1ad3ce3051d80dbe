import Foundation
import NIOConcurrencyHelpers

/// The class every generated API inherits: its parameters, where they travel, what it is
/// (`definition`), how its result decodes, and how it is wrapped on the wire (`rpcDelegate`).
///
/// ```swift
/// let user = try await GetUserAPI(id: 7).start()
/// ```
///
/// `@unchecked Sendable`: `parameters`, `definition` and `responseDecoder` are immutable and
/// Sendable; everything mutable (the per-call overrides and the running calls) sits in `state`,
/// a `NIOLockedValueBox` whose lock guards every read and write. Generated subclasses add no state.
open class BaseAPI<Response: Sendable>: @unchecked Sendable {
    /// The parameters by where they travel, given once to the initializer.
    let parameters: RequestBuilder
    public let definition: APIDefinition
    let responseDecoder: ResponseDecoder<Response>

    private struct State {
        var manager: APIManager?
        var baseURL: String?
        var headers: [(name: String, value: String)] = []
        var timeout: Duration?
        var tags: Set<String> = []
        var progressHandler: (@Sendable (TransferProgress) -> Void)?
        /// Set by a `cancel()` that found no call running: the next call to start is cancelled.
        var cancelsNextCall = false
        /// What cancels each running call (and each reply stream still open), by a number of its own.
        var running: [UInt64: @Sendable () -> Void] = [:]
        var nextCallID: UInt64 = 0
    }

    /// Guards every mutable property of this instance.
    private let state = NIOLockedValueBox(State())

    /// An API with its definition, how its response decodes, and its parameters where they travel.
    ///
    /// Generated subclasses pass their class's `static let definition` and declare only
    /// convenience initializers, so they inherit this one rather than override it. Nothing can
    /// fail here: the builder keeps the values and encodes them when the call starts.
    public init(definition: APIDefinition, response: ResponseDecoder<Response>, request: RequestBuilder = RequestBuilder()) {
        self.parameters = request
        self.definition = definition
        self.responseDecoder = response
    }

    /// How the call is wrapped on the wire; nil is plain REST. JSON-RPC and custom protocols override it.
    open var rpcDelegate: (any RPCDelegate)? { nil }

    // MARK: Per-call overrides
    //
    // These and the calls below are `final`: subclasses override only `rpcDelegate`, and every
    // overridable member is a vtable entry each generated class compiles again.

    /// The manager that sends this API; `APIManager.shared` unless set.
    public final var manager: APIManager {
        get { state.withLockedValue { $0.manager } ?? .shared }
        set { state.withLockedValue { $0.manager = newValue } }
    }

    /// Replaces the base URL of the API and the workspace for this instance.
    public final var baseURL: String? {
        get { state.withLockedValue { $0.baseURL } }
        set { state.withLockedValue { $0.baseURL = newValue } }
    }

    /// Headers sent after (and so replacing) the workspace's, the API's and the parameters'.
    public final var headers: [(name: String, value: String)] {
        get { state.withLockedValue { $0.headers } }
        set { state.withLockedValue { $0.headers = newValue } }
    }

    /// Replaces the timeout of the API and the workspace for this instance.
    public final var timeout: Duration? {
        get { state.withLockedValue { $0.timeout } }
        set { state.withLockedValue { $0.timeout = newValue } }
    }

    /// Tags of this call, added to the manifest's `tags:`; `APIManager.cancel(tag:)` cancels by them.
    public final var tags: Set<String> {
        get { state.withLockedValue { $0.tags } }
        set { state.withLockedValue { $0.tags = newValue } }
    }

    /// Told how far each call's upload and download have got, as their bytes go out and come in,
    /// on no particular thread: for a progress bar. Each attempt of a retried call starts again
    /// from zero.
    public final var progressHandler: (@Sendable (TransferProgress) -> Void)? {
        get { state.withLockedValue { $0.progressHandler } }
        set { state.withLockedValue { $0.progressHandler = newValue } }
    }

    /// Sets `manager` and returns the instance, for one-line calls in tests.
    @discardableResult
    public final func using(_ manager: APIManager) -> Self {
        self.manager = manager
        return self
    }

    // MARK: Calling

    /// Sends the call and returns its decoded response. Cancelling the calling task cancels the
    /// wire request; so do `cancel()` and the manager's `cancel(tag:)`.
    @discardableResult
    public final func start() async throws(APIError) -> Response {
        try await startWithMetadata().value
    }

    /// `start()`, with the reply's header and trailer fields: gRPC's initial and trailing metadata
    /// as fields, or a REST reply's headers.
    ///
    /// The call runs in a task of its own, which `cancel()` and `APIManager.cancel(tag:)` cancel
    /// without cancelling the caller; a reply stream stays cancellable by them until it ends.
    public final func startWithMetadata() async throws(APIError) -> APIReply<Response> {
        let (manager, tags, progress) = state.withLockedValue { ($0.manager ?? .shared, $0.tags.union(definition.tags), $0.progressHandler) }
        let outcome = await manager.run(tags: tags, registering: { cancel in register(cancel) }) { [self] task in
            guard let progress else {
                return await Result { () async throws(APIError) in try await manager.perform(self, in: task) }
            }
            return await ProgressReporter.$current.withValue(ProgressReporter(progress)) {
                await Result { () async throws(APIError) in try await manager.perform(self, in: task) }
            }
        }
        let reply = try outcome.get()
        if let stream = reply.stream {
            let id = manager.running.add(tags: tags) { stream.cancel() }
            let unregister = register { stream.cancel() }
            stream.onEnd {
                manager.running.remove(id)
                unregister?()
            }
        }
        return reply
    }

    /// Keeps `cancel` until the returned closure removes it; runs it at once, and keeps nothing,
    /// when a `cancel()` came before the call could register.
    private func register(_ cancel: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        let id: UInt64? = state.withLockedValue { state in
            guard !state.cancelsNextCall else {
                state.cancelsNextCall = false
                return nil
            }
            defer { state.nextCallID += 1 }
            state.running[state.nextCallID] = cancel
            return state.nextCallID
        }
        guard let id else {
            cancel()
            return nil
        }
        return { [state] in _ = state.withLockedValue { $0.running.removeValue(forKey: id) } }
    }

    /// `start()` for callback users: `completion` runs once, on no particular thread.
    public final func start(completion: @escaping @Sendable (Result<Response, APIError>) -> Void) {
        Task {
            do throws(APIError) {
                completion(.success(try await start()))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Cancels every call of this instance now in flight, and its open reply streams; each fails
    /// with `APIError.Reason.cancelled`. When none is running yet, it cancels the next call to
    /// start, so that `async let user = api.start(); api.cancel()` cancels that call wherever it
    /// has got to. Later calls on the instance run as usual.
    public final func cancel() {
        let calls = state.withLockedValue { state in
            defer { state.running = [:] }
            state.cancelsNextCall = state.running.isEmpty
            return Array(state.running.values)
        }
        for cancel in calls { cancel() }
    }

    // MARK: Building the request

    /// The wire request, with base URL overrides of `manager`, the one that will send it.
    final func makeRequest(for manager: APIManager) throws(APIError) -> APIRequest {
        let current = state.withLockedValue { (baseURL: $0.baseURL, headers: $0.headers, timeout: $0.timeout) }
        let declaredBaseURL = definition.baseURL ?? definition.defaults.baseURL
        let resolved = RequestBuilder.Resolved(
            baseURL: current.baseURL ?? declaredBaseURL.map { manager.configuration.baseURLOverrides[$0] ?? $0 },
            headers: current.headers,
            timeout: current.timeout ?? definition.timeout ?? definition.defaults.timeout ?? manager.configuration.timeout
        )
        return try parameters.makeRequest(for: definition, resolved)
    }
}
