import Foundation
import NIOConcurrencyHelpers

/// The class every generated API inherits: its parameters, where they travel, what it is
/// (`definition`), how its result decodes, and how it is wrapped on the wire (`rpcDelegate`).
///
/// ```swift
/// let user = try await GetUserAPI(id: 7).start()
/// ```
///
/// `@unchecked Sendable`, and so is every generated subclass, which Swift requires to say it
/// again: `parameters`, `definition` and `responseDecoder` are immutable and Sendable, and what
/// is mutable (the instance's manager and options, and its running calls) sits in `state`, a
/// `NIOLockedValueBox` whose lock guards every read and write. Subclasses add only `let`
/// properties of Sendable types: their parameters, typed, for stubs and tests to read.
open class BaseAPI<Response: Sendable>: @unchecked Sendable {
    /// The parameters by where they travel, given once to the initializer.
    let parameters: RequestBuilder
    /// What the API is: its name, its wire and its settings; the generated class's `static let
    /// definition`, which is where callers read it.
    let definition: APIDefinition
    let responseDecoder: ResponseDecoder<Response>

    private struct State {
        var manager: APIManager?
        var options = APICallOptions()
        /// Counts the writes of `options`, so that `updateOptions(_:)` can tell when another came in.
        var optionsVersion: UInt64 = 0
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
    /// Generated subclasses keep their parameters in properties of their own, then pass their
    /// class's `static let definition` here. Nothing can fail: the builder keeps the values and
    /// encodes them when the call starts.
    public init(definition: APIDefinition, response: ResponseDecoder<Response>, request: RequestBuilder = RequestBuilder()) {
        self.parameters = request
        self.definition = definition
        self.responseDecoder = response
    }

    /// How the call is wrapped on the wire. The definition's ``Wire`` says what the API is and
    /// this follows from it: ``JSONRPC`` for `.jsonRPC`, ``GRPCProtocol`` for `.grpc`, the
    /// delegate a `.customRPC` method names, nil for `.http` (plain REST). A protocol of your own
    /// is a `.customRPC` wire with your delegate, so an API says what it is in one place.
    public final var rpcDelegate: (any RPCDelegate)? { definition.wire.delegate }

    // MARK: Per-call settings
    //
    // The instance's public properties are `options` and `rpcDelegate` alone, so a generated
    // parameter may take any other name (`tags`, `manager`, `definition`); the generator knows
    // these two (`SwiftIdentifier.apiMemberNames`) and the docs build checks that it does. They
    // and the calls below are `final`: `BaseAPI` has no overridable member, so a subclass cannot
    // change how a call is sent, and none is a vtable entry each generated class compiles again.

    /// The manager that sends this API: the one `using(_:)` gave, else `APIManager.shared`.
    final var manager: APIManager {
        state.withLockedValue { $0.manager } ?? .shared
    }

    /// The options every call of this instance starts with (`api.options.timeout = .seconds(5)`);
    /// `start(options:)` adds its own.
    ///
    /// `api.options.timeout = …` reads the value and writes it back whole: from tasks that change
    /// one instance at the same time, use `updateOptions(_:)`, which does both under one lock.
    public final var options: APICallOptions {
        get { state.withLockedValue { $0.options } }
        set {
            state.withLockedValue { state in
                state.options = newValue
                state.optionsVersion &+= 1
            }
        }
    }

    /// Changes `options` so that changes made from several tasks at once all stay:
    /// `api.updateOptions { $0.tags.insert("feed") }`. `change` runs on a copy, outside the lock
    /// (it may read the instance), and runs again on the newer value when another write came in
    /// before its own.
    public final func updateOptions(_ change: (inout APICallOptions) -> Void) {
        while true {
            let (current, version) = state.withLockedValue { ($0.options, $0.optionsVersion) }
            var changed = current
            change(&changed)
            let stored = state.withLockedValue { state in
                guard state.optionsVersion == version else { return false }
                state.options = changed
                state.optionsVersion &+= 1
                return true
            }
            if stored { return }
        }
    }

    /// Sends this instance's calls through `manager` instead of `APIManager.shared`, and returns
    /// the instance: `GetUserAPI(id: 7).using(manager).start()`.
    @discardableResult
    public final func using(_ manager: APIManager) -> Self {
        state.withLockedValue { $0.manager = manager }
        return self
    }

    // MARK: Calling

    /// Sends the call and returns its decoded response. Cancelling the calling task cancels the
    /// wire request; so do `cancel()` and the manager's `cancel(tag:)`. `options` go over the
    /// instance's own.
    @discardableResult
    public final func start(options: APICallOptions = APICallOptions()) async throws(APIError) -> Response {
        try await startWithMetadata(options: options).value
    }

    /// `start(options:)`, with the reply's header and trailer fields: a REST reply's headers, or
    /// gRPC's initial and trailing metadata.
    ///
    /// The call runs in a task of its own, which `cancel()` and `APIManager.cancel(tag:)` cancel
    /// without cancelling the caller; a reply stream stays cancellable by them until it ends.
    public final func startWithMetadata(options: APICallOptions = APICallOptions()) async throws(APIError) -> APIReply<Response> {
        let (manager, instanceOptions) = state.withLockedValue { ($0.manager ?? .shared, $0.options) }
        let call = APICall(
            instance: self, definition: definition, parameters: parameters, delegate: rpcDelegate, decoder: responseDecoder,
            options: instanceOptions.adding(options)
        )
        return try await manager.send(call) { [self] cancel in register(cancel) }
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
    public final func start(options: APICallOptions = APICallOptions(), completion: @escaping @Sendable (Result<Response, APIError>) -> Void) {
        Task {
            do throws(APIError) {
                completion(.success(try await start(options: options)))
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

    /// What a JSON-RPC batch needs of this call to send it with others.
    final var call: APICall<Response> {
        let options = self.options
        return APICall(instance: self, definition: definition, parameters: parameters, delegate: rpcDelegate, decoder: responseDecoder, options: options)
    }
}
