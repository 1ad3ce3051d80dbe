@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import Testing

/// The calls a plan makes for someone other than one API instance, without sockets: a JSON-RPC
/// batch, sent under the strictest settings its members share, and typed stubs, handed the API
/// instance that made the call (one a batch member). The example workspace's stubs of every
/// protocol are in `APIWireTests/Stubs`.
@Suite("Batches and typed stubs, without sockets")
struct BatchAndStubTests {
    static let defaults = APIDefaults(baseURL: "https://api.example.com/v1", timeout: .seconds(30))

    /// `add(a, b)` over JSON-RPC, with a timeout and tags of its own. Unchecked as generated APIs
    /// are: its own properties are constants, and `BaseAPI`'s state is behind its lock.
    final class AddAPI: BaseAPI<Int>, @unchecked Sendable {
        let a: Int
        let b: Int

        init(_ a: Int, _ b: Int, timeout: Duration? = nil, tags: [String] = []) {
            self.a = a
            self.b = b
            let definition = APIDefinition(
                name: "Add", wire: .jsonRPC(JSONRPCMethod("add", path: "/rpc")), timeout: timeout, tags: tags,
                defaults: BatchAndStubTests.defaults
            )
            super.init(definition: definition, response: .json, request: RequestBuilder().body("a", a).body("b", b))
        }
    }

    /// `GET /users/{id}/name`, as text; unchecked as `AddAPI` is.
    final class GetNameAPI: BaseAPI<String>, @unchecked Sendable {
        let id: Int

        init(id: Int) {
            self.id = id
            super.init(
                definition: APIDefinition(name: "GetName", wire: .http(.get, path: "/users/{id}/name"), defaults: BatchAndStubTests.defaults),
                response: .text, request: RequestBuilder().path("id", id)
            )
        }
    }

    /// Runs `body` with a manager whose transport answers after an hour on the manual clock.
    static func withHangingServer(body: (APIManager, ManualClock) async throws -> Void) async throws {
        let clock = ManualClock()
        try await withScriptedManager(clock: clock, respond: { _ in
            try await clock.sleep(for: .seconds(3600))
            return (.status(.ok), Data("[]".utf8))
        }) { manager in try await body(manager, clock) }
    }

    @Test("A batch waits on its members' shortest deadline, and its timeout is each member's error")
    func batchDeadline() async throws {
        try await Self.withHangingServer { manager, clock in
            let batch = JSONRPCBatch(manager: manager)
            let slow = batch.add(AddAPI(1, 2))
            let quick = batch.add(AddAPI(3, 4, timeout: .seconds(5)))
            let sent = Task { try await batch.send() }
            try await waitUntil { clock.pending.contains(.seconds(3600)) }
            clock.advance(by: .seconds(5))
            #expect(await expectAPIError { try await sent.value }?.reason == .timeout(.seconds(5)))
            #expect(slow.result.failureValue?.reason == .timeout(.seconds(5)))
            #expect(quick.result.failureValue?.reason == .timeout(.seconds(5)))
        }
    }

    @Test("A batch is one request to its members' endpoint, with their envelopes in an array; its reply is read by id, not unwrapped as one call's")
    func batchReply() async throws {
        try await withScriptedManager(clock: ManualClock(), respond: { request in
            #expect(request.method == .post && request.path == "/v1/rpc")
            return (.status(.ok), Data(#"[{"jsonrpc": "2.0", "id": 2, "result": 7}, {"jsonrpc": "2.0", "id": 1, "result": 3}]"#.utf8))
        }) { manager in
            let batch = JSONRPCBatch(manager: manager)
            let first = batch.add(AddAPI(1, 2, tags: ["math"]))
            let second = batch.add(AddAPI(3, 4))
            try await batch.send()
            #expect(try first.get() == 3)
            #expect(try second.get() == 7)
        }
    }

    @Test("Interceptors see a batch as a JSON-RPC call of its own, whatever wire its first member declares")
    func batchContext() async throws {
        let seen = NIOLockedValueBox<[String]>([])
        try await withScriptedManager(clock: ManualClock(), configure: { $0.interceptors = [RecordingInterceptor(name: "Log", seen: seen)] }, respond: { _ in
            (.status(.ok), Data(#"[{"jsonrpc": "2.0", "id": 1, "result": 3}]"#.utf8))
        }) { manager in
            // JSON-RPC through a custom wire: a batch may carry it, and its context is the batch's.
            let wire = Wire.customRPC(CustomRPCMethod("add", path: "/rpc", delegate: JSONRPC()))
            let api = BaseAPI<Int>(definition: APIDefinition(name: "Add", wire: wire, defaults: Self.defaults), response: .json, request: RequestBuilder().body("a", 1))
            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(api)
            try await batch.send()
            #expect(try sum.get() == 3)
            #expect(seen.withLockedValue { $0 } == ["Log>jsonrpc:JSONRPCBatch#1", "Log<200"])
        }
    }

    @Test("Request ids are the protocol's to ask for: JSON-RPC and a team's envelope get one a call, gRPC none, a notification none")
    func requestIDs() throws {
        let manager = APIManager()
        let jsonRPC = BaseAPI<Int>(definition: APIDefinition(name: "Add", wire: .jsonRPC(JSONRPCMethod("add", path: "/rpc")), defaults: Self.defaults), response: .json)
        let notification = BaseAPI<NoContent>(
            definition: APIDefinition(name: "Hello", wire: .jsonRPC(JSONRPCMethod("hello", path: "/rpc", isNotification: true)), defaults: Self.defaults),
            response: .noContent
        )
        let envelope = BaseAPI<Int>(
            definition: APIDefinition(name: "Count", wire: .customRPC(CustomRPCMethod("count", path: "/rpc", delegate: Envelope())), defaults: Self.defaults), response: .json
        )
        let method = GRPCMethod(
            service: "helloworld.Greeter", name: "SayHello", shape: .unary, isIdempotent: false,
            // Planned, never sent: a factory that reaches gRPC URLs is all the plan needs.
            defaultTransport: TransportFactory(name: "unsent", schemes: ["grpc"]) { _, _, _ in throw CancellationError() }, descriptor: nil
        )
        let grpc = BaseAPI<Int>(
            definition: APIDefinition(name: "SayHello", wire: .grpc(method), baseURL: "grpc://localhost:50051", defaults: Self.defaults), response: .json
        )
        let first = try manager.plan(jsonRPC.call).rpc?.id
        #expect(first != nil)
        #expect(try manager.plan(envelope.call).rpc?.id == first.map { $0 + 1 })
        #expect(try manager.plan(notification.call).rpc?.id == nil)
        #expect(try manager.plan(grpc.call).rpc?.id == nil)
        #expect(try manager.plan(jsonRPC.call).rpc?.id == first.map { $0 + 2 })
    }

    /// A team's own envelope that keeps the default: a request id a call.
    struct Envelope: RPCDelegate {
        func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError) {}
        func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data { response.body }
    }

    @Test("cancel(tag:) with any member's tag cancels the batch")
    func batchTag() async throws {
        try await Self.withHangingServer { manager, clock in
            let batch = JSONRPCBatch(manager: manager)
            let tagged = batch.add(AddAPI(1, 2, tags: ["math"]))
            batch.add(AddAPI(3, 4))
            let sent = Task { try await batch.send() }
            try await waitUntil { clock.pending.contains(.seconds(3600)) }
            #expect(manager.cancel(tag: "math") == 1)
            #expect(await expectAPIError { try await sent.value }?.reason == .cancelled)
            #expect(tagged.result.failureValue?.reason == .cancelled)
        }
    }

    @Test("A typed stub is handed the instance that made the call, alone or in a batch; nothing reaches the transport")
    func typedStubs() async throws {
        let sent = NIOLockedValueBox(0)
        try await withScriptedManager(clock: ManualClock(), respond: { _ in
            sent.withLockedValue { $0 += 1 }
            return (.status(.ok), Data())
        }) { manager in
            manager.stub(GetNameAPI.self) { api in "user \(api.id)" }
            manager.stub(AddAPI.self) { api in api.a + api.b }
            #expect(try await GetNameAPI(id: 7).using(manager).start() == "user 7")

            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(AddAPI(1, 2))
            let other = batch.add(AddAPI(40, 2))
            try await batch.send()
            #expect(try sum.get() == 3 && other.get() == 42)

            #expect(manager.recordedCalls.map(\.name) == ["GetName", "Add", "Add"])
            #expect(manager.recordedCalls(of: GetNameAPI.self).map(\.id) == [7])
            #expect(manager.recordedCalls(of: AddAPI.self).map(\.a) == [1, 40])
            #expect(sent.withLockedValue { $0 } == 0)
        }
    }

    @Test("A stubbing manager fails a call no stub answers, naming what it sent, and a batch with a member no stub answers, naming that member")
    func unstubbed() async throws {
        try await withScriptedManager(clock: ManualClock(), respond: { _ in
            Issue.record("a stubbing manager reached the transport")
            return (.status(.ok), Data())
        }) { manager in
            manager.stub(AddAPI.self) { api in api.a + api.b }
            let error = await expectAPIError { try await GetNameAPI(id: 7).using(manager).start() }
            #expect(error?.reason == .notStubbed(request: "GET https://api.example.com/v1/users/7/name"))

            manager.removeAllStubs()
            manager.stub(GetNameAPI.self) { _ in "x" }
            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(AddAPI(1, 2))
            let batchError = await expectAPIError { try await batch.send() }
            #expect(batchError?.reason == .notStubbed(request: "POST https://api.example.com/v1/rpc (add) in a batch"))
            #expect(sum.result.failureValue?.reason == batchError?.reason)
        }
    }
}
