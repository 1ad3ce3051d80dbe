@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// Puts `Caller.token` in the JSON-RPC envelope (`"auth"`), as Zabbix, Odoo and many JSON-RPC
/// services want their session: the credential travels in the body, not in a header.
struct EnvelopeSession: APIInterceptor {
    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        guard let token = Caller.token, let body = request.body,
              var envelope = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        else { return request }
        envelope["auth"] = token
        var request = request
        request.body = try? JSONSerialization.data(withJSONObject: envelope, options: [.sortedKeys])
        return request
    }
}

/// Stamps each request with an id of its own, as request-id and tracing interceptors do.
struct RequestIDStamp: APIInterceptor {
    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        var request = request
        request.headerFields[HTTPField.Name("X-Request-ID")!] = UUID().uuidString
        return request
    }
}

@Suite("What the identity of a request as sent reads")
struct SentIdentityTests {
    /// Answers `data.get` with the `auth` its envelope carried.
    static func rpc(_ request: WireTestSupport.RecordedRequest) async throws -> Response {
        let envelope = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        let reply: [String: Any] = [
            "jsonrpc": "2.0", "result": "data of " + ((envelope["auth"] as? String) ?? "nobody"), "id": envelope["id"] ?? NSNull(),
        ]
        let bytes = try JSONSerialization.data(withJSONObject: reply)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    @Test("A JSON-RPC session an interceptor puts in the envelope keeps two users' cached replies apart")
    func credentialInEnvelope() async throws {
        try await withServer(configure: { $0.interceptors = [EnvelopeSession()]; $0.cache = .memory() }, Self.rpc) {
            (server: LoopbackServer, manager: APIManager) async throws in
            func data() -> BaseAPI<String> {
                let definition = APIDefinition(
                    name: "GetData", wire: .jsonRPC(JSONRPCMethod("data.get", path: "/rpc")), safe: true, cache: CacheSettings(ttl: 60),
                    defaults: APIDefaults(baseURL: server.baseURL)
                )
                return BaseAPI(definition: definition, response: .json, request: RequestBuilder().positional(1))
            }
            #expect(try await Caller.$token.withValue("ann") { try await data().using(manager).start() } == "data of ann")
            #expect(try await Caller.$token.withValue("bob") { try await data().using(manager).start() } == "data of bob")
            #expect(server.requests.count == 2)
        }
    }

    @Test("A header an interceptor stamps on every request (a request id, a trace) does not turn the cache off")
    func volatileHeaderKeepsCaching() async throws {
        try await withServer(configure: { $0.interceptors = [RequestIDStamp()]; $0.cache = .memory() }, { _ in ResponseCacheTests.reply("profile") }) {
            (server: LoopbackServer, manager: APIManager) async throws in
            _ = try await CallerSeparationTests.me(server).using(manager).start()
            let again = try await CallerSeparationTests.me(server).using(manager).startWithMetadata()
            #expect(again.source.isFromCache)
            #expect(server.requests.count == 1)
        }
    }

    @Test("Two JSON-RPC calls whose parameters differ past a Double's digits are two calls, when an interceptor put a session in the envelope")
    func envelopeIdentityPrecision() async throws {
        try await withServer(configure: { $0.interceptors = [EnvelopeSession()]; $0.cache = .memory() }, { request in
            let envelope = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
            let raw = String(decoding: request.body, as: UTF8.self)
            let reply: [String: Any] = ["jsonrpc": "2.0", "result": raw.contains("12345678901234567891") ? "account 891" : "account 890", "id": envelope["id"] ?? NSNull()]
            let bytes = try JSONSerialization.data(withJSONObject: reply)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            func balance(_ account: UInt64) -> BaseAPI<String> {
                let definition = APIDefinition(
                    name: "GetBalance", wire: .jsonRPC(JSONRPCMethod("balance.get", path: "/rpc")), safe: true, cache: CacheSettings(ttl: 60),
                    defaults: APIDefaults(baseURL: server.baseURL)
                )
                return BaseAPI(definition: definition, response: .json, request: RequestBuilder().positional(account))
            }
            let first = try await Caller.$token.withValue("ann") { try await balance(12_345_678_901_234_567_890).using(manager).start() }
            let second = try await Caller.$token.withValue("ann") { try await balance(12_345_678_901_234_567_891).using(manager).start() }
            #expect(first == "account 890")
            #expect(second == "account 891", "answered with another call's cached reply")
        }
    }

    /// Writes the envelope again with its members, and its parameters', in another order on every
    /// other call, as an encoder without sorted keys may from one launch to the next.
    final class ReorderingSession: APIInterceptor, Sendable {
        let calls = NIOLockedValueBox(0)

        func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
            guard let id = context.rpc?.id else { return request }
            let flipped = calls.withLockedValue { calls in
                calls += 1
                return calls.isMultiple(of: 2)
            }
            var request = request
            request.body = Data((flipped
                ? #"{"id":\#(id), "auth":"ann", "params":{"b":[2, {"y":1,"x":0}],"a":1}, "method":"data.get", "jsonrpc":"2.0"}"#
                : #"{"jsonrpc":"2.0","method":"data.get","params":{"a":1,"b":[2,{"x":0,"y":1}]},"auth":"ann","id":\#(id)}"#).utf8)
            return request
        }
    }

    @Test("An envelope an interceptor writes is one call whatever the order of its members, at every level, and its whitespace")
    func envelopeMemberOrder() async throws {
        try await withServer(configure: { $0.interceptors = [ReorderingSession()]; $0.cache = .memory() }, Self.rpc) { (server: LoopbackServer, manager: APIManager) async throws in
            let definition = APIDefinition(
                name: "GetData", wire: .jsonRPC(JSONRPCMethod("data.get", path: "/rpc")), safe: true, cache: CacheSettings(ttl: 60),
                defaults: APIDefaults(baseURL: server.baseURL)
            )
            for _ in 0..<2 { _ = try await BaseAPI<String>(definition: definition, response: .json).using(manager).start() }
            #expect(server.requests.count == 1, "the second call, its envelope written in another order, was not answered from the cache")
        }
    }
}
