import Foundation

/// Typed stubs, for tests: a stub answers every call of one API class with a value of its
/// response type, made from the call's parameters.
///
/// ```swift
/// let manager = APIManager()
/// manager.stub(GetUserAPI.self) { api in User(id: api.id, name: "Ada") }
/// let user = try await GetUserAPI(id: 7).using(manager).start()
/// #expect(manager.recordedCalls(of: GetUserAPI.self).map(\.id) == [7])
/// ```
///
/// The value is encoded as the API's server would send it (JSON in the protocol's envelope, a
/// protobuf message) and then goes through the whole call path: the interceptors see the
/// request and the reply, the retry policy and the deadline apply, and the API decodes the reply
/// as it decodes a server's. A stub throws `StubError` to answer with a failure.
///
/// Once a test has stubbed one API, the manager sends nothing to the network: a call that no
/// stub answers (nor the configuration's `StubSet`) fails with `APIError.Reason.notStubbed`,
/// naming the API and what it sent. Registering a stub for an API again replaces its stub.
extension APIManager {
    /// Answers every call of `api` with the value `answer` returns for it, encoded as JSON, after
    /// `delay` on the manager's clock.
    public func stub<API: BaseAPI<Response>, Response: Encodable>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> Response
    ) {
        register(api, delay: delay) { api, call in
            try call.reply(result: JSONCoding.encoder.encode(try await answer(api)), contentType: "application/json")
        }
    }

    /// Answers every call of `api`, an API that returns nothing, once `answer` returns.
    public func stub<API: BaseAPI<NoContent>>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> Void
    ) {
        register(api, delay: delay) { api, call in
            try await answer(api)
            return call.emptyReply
        }
    }

    /// Answers every call of `api`, an API whose reply is bytes, with the bytes `answer` returns.
    public func stub<API: BaseAPI<Data>>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> Data
    ) {
        register(api, delay: delay) { api, call in
            call.reply(result: try await answer(api), contentType: "application/octet-stream")
        }
    }

    /// Answers every call of `api`, a download, with the file's contents `answer` returns; the
    /// API writes them to its destination as it writes a server's.
    public func stub<API: BaseAPI<URL>>(
        _ api: API.Type, delay: Duration = .zero, _ answer: @escaping @Sendable (API) async throws -> Data
    ) {
        register(api, delay: delay) { api, call in
            call.reply(result: try await answer(api), contentType: "application/octet-stream")
        }
    }

    /// Answers every call of `api` with the reply `answer` returns, as it is: a status, header
    /// fields and a body, written as the server writes them.
    public func stub<API: BaseAPI<Response>, Response>(
        _ api: API.Type, delay: Duration = .zero, reply answer: @escaping @Sendable (API) async throws -> StubResponse
    ) {
        register(api, delay: delay) { api, _ in try await answer(api).response() }
    }

    /// Registers a stub for `api` whose answer is already a reply: what the typed stubs of each
    /// protocol build on.
    package func register<API>(
        _ api: API.Type, delay: Duration, _ answer: @escaping @Sendable (API, StubbedCall) async throws -> APIResponse
    ) {
        transports.stubs.registry.register(api, StubRegistry.Stub(delay: delay) { instance, call in
            // The registry keys stubs by the instance's class, so this is always an `API`.
            guard let api = instance as? API else { throw StubError.connectionFailed("a stub of \(API.self) was handed \(type(of: instance))") }
            return try await answer(api, call)
        })
    }

    /// Every request this manager's stubs were asked since the first stub, in order, the ones
    /// no stub answered included.
    public var recordedCalls: [RecordedCall] {
        transports.stubs.registry.recorded
    }

    /// The API instances of `api` whose calls reached the stubs, in order: read their typed
    /// parameters (`.map(\.id)`).
    public func recordedCalls<API>(of api: API.Type) -> [API] {
        recordedCalls.compactMap { $0.api(API.self) }
    }

    /// Removes every stub and recorded call: the manager sends its calls to the network again.
    public func removeAllStubs() {
        transports.stubs.registry.removeAll()
    }
}
