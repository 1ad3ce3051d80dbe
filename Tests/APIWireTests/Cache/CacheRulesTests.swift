@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// What a private cache must never do (RFC 9111), on a loopback server: share a `private` reply,
/// serve past `must-revalidate`, keep an older reply after a removal, or reach the network when
/// asked for the cache alone.
@Suite("The response cache keeps RFC 9111's rules")
struct CacheRulesTests {
    @Test(
        "Under scope: shared, a reply to one token is not served to another unless the server says public and not private",
        arguments: ["private, max-age=300", "private, must-revalidate, max-age=300", "must-revalidate, max-age=300", "public, private, max-age=300"]
    )
    func privateIsNeverShared(cacheControl: String) async throws {
        let recorder = CacheRecorder()
        try await ResponseCacheTests.withCache(recorder: recorder, { request in
            ResponseCacheTests.reply("for " + (request.headers[.authorization] ?? "nobody"), [("Cache-Control", cacheControl)])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            let shared = CacheSettings(scope: .shared)
            recorder.token.withLockedValue { $0 = "ann" }
            #expect(try await ResponseCacheTests.user(server, cache: shared).using(manager).start() == "for Bearer ann")
            recorder.token.withLockedValue { $0 = "bob" }
            #expect(try await ResponseCacheTests.user(server, cache: shared).using(manager).start() == "for Bearer bob")
            #expect(server.requests.count == 2)
            // Each is still kept for its own token.
            recorder.token.withLockedValue { $0 = "ann" }
            #expect(try await ResponseCacheTests.user(server, cache: shared).using(manager).startWithMetadata().source.isFromCache)
        }
    }

    @Test("A manifest's ttl sets the lifetime only: the server's must-revalidate still keeps a stale reply from standing in for a 503")
    func ttlKeepsMustRevalidate() async throws {
        let failing = NIOLockedValueBox(false)
        try await ResponseCacheTests.withCache({ _ in
            failing.withLockedValue({ $0 }) ? ResponseCacheTests.reply("down", status: .serviceUnavailable)
                : ResponseCacheTests.reply("ann", [("Cache-Control", "must-revalidate")])
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            let api = ResponseCacheTests.user(server, cache: CacheSettings(ttl: 1, staleIfError: 600)).using(manager)
            #expect(try await api.start() == "ann")
            failing.withLockedValue { $0 = true }
            clock.advance(by: .seconds(2))
            await #expect(throws: APIError.self) { try await api.start() }
        }
    }

    @Test("A read in flight when a mutation invalidates its tag does not store its older reply")
    func readInFlightDuringInvalidation() async throws {
        let version = NIOLockedValueBox(1)
        let readsStarted = NIOLockedValueBox(0)
        try await ResponseCacheTests.withCache({ request in
            if request.method == .post {
                version.withLockedValue { $0 += 1 }
                return ResponseCacheTests.reply("updated")
            }
            let seen = version.withLockedValue { $0 }
            readsStarted.withLockedValue { $0 += 1 }
            // The first read is still on its way when the update ends.
            if seen == 1 { try await waitUntil { version.withLockedValue { $0 } > 1 } }
            return ResponseCacheTests.reply("ann v\(seen)", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            let update = APIDefinition(
                name: "UpdateUser", wire: .http(.post, path: "/users/7"), invalidates: ["users"], defaults: APIDefaults(baseURL: server.baseURL)
            )
            async let read = ResponseCacheTests.user(server).using(manager).start()
            try await waitUntil { readsStarted.withLockedValue { $0 } == 1 }
            _ = try await BaseAPI(definition: update, response: .text).using(manager).start()
            let value = try await read
            #expect(value == "ann v1")
            let next = try await ResponseCacheTests.user(server).using(manager).startWithMetadata()
            #expect(next.value == "ann v2" && !next.source.isFromCache)
        }
    }

    @Test("A log-out while a read of that account is in flight leaves nothing of it stored")
    func readInFlightDuringLogOut() async throws {
        let recorder = CacheRecorder()
        recorder.token.withLockedValue { $0 = "ann" }
        let loggedOut = NIOLockedValueBox(false), readStarted = NIOLockedValueBox(false)
        try await ResponseCacheTests.withCache(recorder: recorder, { _ in
            readStarted.withLockedValue { $0 = true }
            try await waitUntil { loggedOut.withLockedValue { $0 } }
            return ResponseCacheTests.reply("ann's", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            async let read = ResponseCacheTests.user(server).using(manager).start()
            try await waitUntil { readStarted.withLockedValue { $0 } }
            manager.cache.removeAll(credential: "ann")
            loggedOut.withLockedValue { $0 = true }
            #expect(try await read == "ann's")
            #expect(manager.cache.count == 0)
        }
    }

    @Test("A JSON-RPC batch member that succeeds runs its invalidates:, one that fails does not")
    func batchMembersInvalidate() async throws {
        try await ResponseCacheTests.withCache(JSONRPCServer.handle) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            func subtract() -> BaseAPI<Int> {
                let definition = APIDefinition(
                    name: "Subtract", wire: .jsonRPC(JSONRPCMethod("subtract", path: "/rpc")), tags: ["math"], safe: true,
                    cache: CacheSettings(ttl: 60), defaults: APIDefaults(baseURL: server.baseURL)
                )
                return BaseAPI(definition: definition, response: .json, request: RequestBuilder().positional(42).positional(23)).using(manager)
            }
            func mutation(_ method: String) -> BaseAPI<Int> {
                let definition = APIDefinition(
                    name: "Change", wire: .jsonRPC(JSONRPCMethod(method, path: "/rpc")), invalidates: ["math"],
                    defaults: APIDefaults(baseURL: server.baseURL)
                )
                return BaseAPI(definition: definition, response: .json, request: RequestBuilder().positional(1).positional(2))
            }
            #expect(try await subtract().start() == 19)
            let failing = JSONRPCBatch(manager: manager)
            let unknown = failing.add(mutation("no_such_method"))
            try await failing.send()
            #expect(throws: APIError.self) { try unknown.get() }
            #expect(try await subtract().startWithMetadata().source.isFromCache)

            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(mutation("sum"))
            try await batch.send()
            #expect(try sum.get() == 3)
            #expect(try await !subtract().startWithMetadata().source.isFromCache)
        }
    }

    @Test("cacheOnly never reaches the network, even when the stored reply no longer decodes")
    func cacheOnlyStaysOffline() async throws {
        try await ResponseCacheTests.withCache({ _ in
            ResponseCacheTests.reply("not a number", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            #expect(try await ResponseCacheTests.user(server).using(manager).start() == "not a number")
            let definition = ResponseCacheTests.user(server).definition
            let number = BaseAPI<Int>(definition: definition, response: .json, request: RequestBuilder().path("id", 7)).using(manager)
            let error = await #expect(throws: APIError.self) { try await number.start(options: APICallOptions(cachePolicy: .cacheOnly)) }
            #expect(error?.reason == .notCached)
            #expect(server.requests.count == 1)
            // The reply it could not read is gone: the next call that may use the network fetches.
            #expect(manager.cache.count == 0)
        }
    }
}
