@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import ExampleClient
import Hummingbird
import InMemoryLogging
import Logging
import MetricsTestKit
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// The response cache of REST calls against a Hummingbird server that sets `Cache-Control`,
/// `ETag`, `Last-Modified` and `Vary`, and counts what it receives. Time moves by hand: the
/// manager's clock dates the entries.
@Suite("The response cache on a loopback server")
struct ResponseCacheTests {
    /// `GET /users/{id}` with `cache`, tagged `users`, answered as text.
    static func user(_ server: LoopbackServer, id: Int = 7, cache: CacheSettings = .http, headers: [(name: String, value: String)] = []) -> BaseAPI<String> {
        let definition = APIDefinition(
            name: "GetUser", wire: .http(.get, path: "/users/{id}"), tags: ["users"], cache: cache,
            defaults: APIDefaults(baseURL: server.baseURL)
        )
        let api = BaseAPI(definition: definition, response: .text, request: RequestBuilder().path("id", id))
        api.options.headers = headers
        return api
    }

    /// A text reply with `fields`.
    static func reply(_ text: String, _ fields: [(String, String)] = [], status: HTTPResponse.Status = .ok) -> Response {
        var headers: HTTPFields = [.contentType: "text/plain"]
        for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A handler that answers its `n`th request (from 1) with `reply(n)`.
    static func counting(_ reply: @escaping @Sendable (Int) -> Response) -> LoopbackServer.Handler {
        let served = NIOLockedValueBox(0)
        return { _ in reply(served.withLockedValue { $0 += 1; return $0 }) }
    }

    /// Runs `body` against a server answering with `handler`, through a manager whose clock moves
    /// by hand, whose interceptors are `recorder` then `interceptors`, and whose cache is `storage`.
    static func withCache(
        recorder: CacheRecorder = CacheRecorder(), interceptors: [any APIInterceptor] = [], storage: CacheStorage = .memory(),
        _ handler: @escaping LoopbackServer.Handler,
        body: (LoopbackServer, APIManager, ManualClock) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        try await withServer(configure: {
            $0.clock = clock
            $0.interceptors = [recorder] + interceptors
            $0.cache = storage
        }, handler) { server, manager in try await body(server, manager, clock) }
    }

    static func age(_ source: ReplySource) -> Double? {
        if case .cache(let age) = source { return age }
        return nil
    }

    /// Whether an age is `seconds`, as the manual clock moved it, plus what the server's `Date`
    /// adds: RFC 9111 counts a reply dated before it arrived as that much older, and the manual
    /// clock stands still while real time passes (Hummingbird's date is whole seconds, renewed
    /// once a second, later on a loaded machine).
    static func isAbout(_ age: Double?, _ seconds: Double) -> Bool {
        age.map { $0 >= seconds && $0 < seconds + 10 } ?? false
    }

    @Test("A fresh reply answers the next call with nothing sent; once max-age has passed, the server does")
    func freshReply() async throws {
        let recorder = CacheRecorder()
        try await Self.withCache(recorder: recorder, Self.counting {
            Self.reply("ann \($0)", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            let first = try await Self.user(server).using(manager).startWithMetadata()
            clock.advance(by: .seconds(30))
            let second = try await Self.user(server).using(manager).startWithMetadata()
            #expect(first.value == "ann 1" && second.value == "ann 1")
            #expect(!first.source.isFromCache)
            #expect(Self.isAbout(Self.age(second.source), 30))
            #expect(second.headerFields[.cacheControl] == "max-age=60")
            #expect(server.requests.count == 1)

            clock.advance(by: .seconds(31))
            let third = try await Self.user(server).using(manager).start()
            #expect(third == "ann 2")
            #expect(server.requests.count == 2)
            // Another id is another call.
            _ = try await Self.user(server, id: 8).using(manager).start()
            #expect(server.requests.count == 3)
        }
        #expect(recorder.seen == ["miss", "stored", "hit", "miss", "stored", "miss", "stored"])
    }

    @Test("A stale reply with an ETag is revalidated: a 304 refreshes it, a 200 replaces it")
    func revalidationWithETag() async throws {
        let recorder = CacheRecorder()
        let version = NIOLockedValueBox(1)
        try await Self.withCache(recorder: recorder, { request in
            let current = version.withLockedValue { $0 }
            let tag = "\"v\(current)\""
            if request.headers[.ifNoneMatch] == tag {
                return Self.reply("", [("ETag", tag), ("Cache-Control", "max-age=60")], status: .notModified)
            }
            return Self.reply("profile v\(current)", [("ETag", tag), ("Cache-Control", "no-cache")])
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            let first = try await Self.user(server).using(manager).startWithMetadata()
            let second = try await Self.user(server).using(manager).startWithMetadata()
            #expect(first.value == "profile v1" && second.value == "profile v1")
            guard case .revalidated = second.source else {
                Issue.record("expected a revalidated reply, got \(second.source)")
                return
            }
            #expect(server.requests.map { $0.headers[.ifNoneMatch] } == [nil, "\"v1\""])
            // The 304's Cache-Control replaced no-cache: the reply is fresh for a minute.
            #expect(second.headerFields[.cacheControl] == "max-age=60")
            clock.advance(by: .seconds(10))
            #expect(try await Self.user(server).using(manager).start() == "profile v1")
            #expect(server.requests.count == 2)

            clock.advance(by: .seconds(60))
            version.withLockedValue { $0 = 2 }
            let changed = try await Self.user(server).using(manager).startWithMetadata()
            #expect(changed.value == "profile v2" && !changed.source.isFromCache)
            #expect(server.requests.last?.headers[.ifNoneMatch] == "\"v1\"")
        }
        #expect(recorder.seen == ["miss", "stored", "miss", "revalidated", "hit", "miss", "stored"])
    }

    @Test("A reply with Last-Modified is revalidated with If-Modified-Since")
    func revalidationWithLastModified() async throws {
        let modified = "Wed, 21 Oct 2026 07:28:00 GMT"
        try await Self.withCache({ request in
            if request.headers[.ifModifiedSince] == modified { return Self.reply("", status: .notModified) }
            return Self.reply("ann", [("Last-Modified", modified), ("Cache-Control", "max-age=0")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            #expect(try await Self.user(server).using(manager).start() == "ann")
            let again = try await Self.user(server).using(manager).startWithMetadata()
            #expect(again.value == "ann")
            #expect(server.requests.map { $0.headers[.ifModifiedSince] } == [nil, modified])
            guard case .revalidated = again.source else {
                Issue.record("expected a revalidated reply, got \(again.source)")
                return
            }
        }
    }

    @Test("no-store, Vary: * and error statuses are never stored; a manifest's ttl does not override no-store", arguments: [
        "no-store", "vary", "error",
    ])
    func neverStored(kind: String) async throws {
        let recorder = CacheRecorder()
        try await Self.withCache(recorder: recorder, { _ in
            switch kind {
            case "no-store": Self.reply("ann", [("Cache-Control", "no-store, max-age=60")])
            case "vary": Self.reply("ann", [("Cache-Control", "max-age=60"), ("Vary", "*")])
            default: Self.reply("gone", [("Cache-Control", "max-age=60")], status: .notFound)
            }
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            for _ in 0..<2 {
                _ = try? await Self.user(server, cache: CacheSettings(ttl: 300)).using(manager).start()
            }
            #expect(server.requests.count == 2)
            #expect(manager.cache.count == 0)
        }
        #expect(!recorder.seen.contains("stored"))
    }

    @Test("Two credentials never see each other's reply; a log-out removes one credential's")
    func credentials() async throws {
        let recorder = CacheRecorder()
        try await Self.withCache(recorder: recorder, { request in
            Self.reply("for " + (request.headers[.authorization] ?? "nobody"), [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            recorder.token.withLockedValue { $0 = "ann" }
            #expect(try await Self.user(server).using(manager).start() == "for Bearer ann")
            recorder.token.withLockedValue { $0 = "bob" }
            #expect(try await Self.user(server).using(manager).start() == "for Bearer bob")
            recorder.token.withLockedValue { $0 = nil }
            #expect(try await Self.user(server).using(manager).start() == "for nobody")
            #expect(server.requests.count == 3)
            recorder.token.withLockedValue { $0 = "ann" }
            #expect(try await Self.user(server).using(manager).start() == "for Bearer ann")
            #expect(server.requests.count == 3)

            #expect(manager.cache.removeAll(credential: "ann") == 1)
            #expect(try await Self.user(server).using(manager).start() == "for Bearer ann")
            #expect(server.requests.count == 4)
            // Nothing the cache keeps holds the token.
            let keys = (manager.cache.store as? MemoryResponseStore)?.keys ?? []
            #expect(!keys.isEmpty && !keys.contains { $0.contains("ann") || $0.contains("bob") })
        }
    }

    @Test("scope: shared serves one reply to every caller, but a reply to a credential only if the server says public", arguments: [false, true])
    func sharedScope(isPublic: Bool) async throws {
        let recorder = CacheRecorder()
        try await Self.withCache(recorder: recorder, { request in
            Self.reply("for " + (request.headers[.authorization] ?? "nobody"), [("Cache-Control", isPublic ? "public, max-age=60" : "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            let shared = CacheSettings(scope: .shared)
            recorder.token.withLockedValue { $0 = "ann" }
            #expect(try await Self.user(server, cache: shared).using(manager).start() == "for Bearer ann")
            recorder.token.withLockedValue { $0 = "bob" }
            let bob = try await Self.user(server, cache: shared).using(manager).start()
            #expect(bob == (isPublic ? "for Bearer ann" : "for Bearer bob"))
            #expect(server.requests.count == (isPublic ? 1 : 2))
        }
    }

    @Test("A reply that varies by a header answers only calls with the same value of it")
    func vary() async throws {
        try await Self.withCache({ request in
            Self.reply("in " + (request.headers[.acceptLanguage] ?? "-"), [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            let english = [(name: "Accept-Language", value: "en")], german = [(name: "Accept-Language", value: "de")]
            // `significantHeaders` lets the two calls share an identity, so only Vary tells them apart.
            func call(_ headers: [(name: String, value: String)]) async throws -> String {
                let definition = APIDefinition(
                    name: "GetUser", wire: .http(.get, path: "/users/7"), significantHeaders: [], cache: .http,
                    defaults: APIDefaults(baseURL: server.baseURL)
                )
                let api = BaseAPI(definition: definition, response: .text).using(manager)
                api.options.headers = headers
                return try await api.start()
            }
            #expect(try await call(english) == "in en")
            #expect(try await call(english) == "in en")
            #expect(try await call(german) == "in de")
            #expect(try await call(german) == "in de")
            #expect(server.requests.count == 2)
        }
    }

    @Test("Per-call policies: reload always asks the server, cache only never does")
    func policies() async throws {
        try await Self.withCache(Self.counting {
            Self.reply("v\($0)", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            let cacheOnly = APICallOptions(cachePolicy: .cacheOnly)
            let error = await expectAPIError { try await Self.user(server).using(manager).start(options: cacheOnly) }
            #expect(error?.reason == .notCached)
            #expect(server.requests.isEmpty)

            #expect(try await Self.user(server).using(manager).start() == "v1")
            #expect(try await Self.user(server).using(manager).start(options: APICallOptions(cachePolicy: .reload)) == "v2")
            #expect(try await Self.user(server).using(manager).start() == "v2")
            #expect(server.requests.count == 2)

            clock.advance(by: .seconds(600))
            let stale = try await Self.user(server).using(manager).startWithMetadata(options: cacheOnly)
            #expect(stale.value == "v2")
            guard case .stale(let age, .cacheOnly) = stale.source, Self.isAbout(age, 600) else {
                Issue.record("expected a stale reply, got \(stale.source)")
                return
            }
            #expect(server.requests.count == 2)
        }
    }

    @Test("Cache then network: the stored value at once, then the server's, in that order")
    func cacheThenNetwork() async throws {
        try await Self.withCache(Self.counting {
            Self.reply("v\($0)", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            var first: [String] = []
            for try await reply in Self.user(server).using(manager).cacheThenNetwork() { first.append(reply.value) }
            #expect(first == ["v1"])

            var replies: [(String, Bool)] = []
            for try await reply in Self.user(server).using(manager).cacheThenNetwork() { replies.append((reply.value, reply.source.isFromCache)) }
            #expect(replies.map(\.0) == ["v1", "v2"])
            #expect(replies.map(\.1) == [true, false])

            // Leaving after the cached value sends nothing.
            for try await _ in Self.user(server).using(manager).cacheThenNetwork() { break }
            #expect(server.requests.count == 2)
        }
    }

    @Test("staleIfError: with the server down, the stored reply is served and says why; past the window, the error")
    func staleIfErrorServerDown() async throws {
        let server = try await RawServer.start(
            reply: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nCache-Control: max-age=10, stale-if-error=60\r\nConnection: close\r\n\r\nann"
        )
        let recorder = CacheRecorder()
        let clock = ManualClock()
        var configuration = APIManager.Configuration()
        configuration.httpTransport = testHTTPTransport
        configuration.clock = clock
        configuration.interceptors = [recorder]
        try await withManager(configuration) { manager in
            let definition = APIDefinition(name: "GetUser", wire: .http(.get, path: "/users/7"), cache: .http, defaults: APIDefaults(baseURL: server.baseURL))
            let api = BaseAPI(definition: definition, response: .text).using(manager)
            #expect(try await api.start() == "ann")
            await server.stop()
            clock.advance(by: .seconds(30))
            let stale = try await api.startWithMetadata()
            #expect(stale.value == "ann")
            guard case .stale(let age, .error(let cause)) = stale.source, case .transport = cause.reason, Self.isAbout(age, 30) else {
                Issue.record("expected a stale reply after a transport error, got \(stale.source)")
                return
            }
            clock.advance(by: .seconds(45))
            let error = await expectAPIError { try await api.start() }
            guard case .transport = error?.reason else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                return
            }
        }
        #expect(recorder.seen == ["miss", "stored", "miss", "stale", "miss"])
    }

    @Test("staleIfError: a 5xx is answered from the cache, a 4xx and must-revalidate are not", arguments: [503, 404, 0])
    func staleIfErrorStatus(failure: Int) async throws {
        let failing = NIOLockedValueBox(false)
        try await Self.withCache({ _ in
            if failing.withLockedValue({ $0 }) {
                return Self.reply("down", status: .init(code: failure == 0 ? 500 : failure))
            }
            return Self.reply("ann", [("Cache-Control", failure == 0 ? "max-age=10, must-revalidate" : "max-age=10")])
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            let api = Self.user(server, cache: CacheSettings(staleIfError: 3600)).using(manager)
            #expect(try await api.start() == "ann")
            failing.withLockedValue { $0 = true }
            clock.advance(by: .seconds(20))
            let value = try? await api.start()
            #expect(value == (failure == 503 ? "ann" : nil))
        }
    }

    @Test("stale-while-revalidate: the stale reply at once, a request in the background, the new reply next time")
    func staleWhileRevalidate() async throws {
        let recorder = CacheRecorder()
        try await Self.withCache(recorder: recorder, Self.counting {
            // The server's Date is real time, which the manual clock has left behind by the time
            // the refresh arrives: its reply is fresh for longer than that.
            Self.reply("v\($0)", [("Cache-Control", $0 == 1 ? "max-age=10, stale-while-revalidate=60" : "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            #expect(try await Self.user(server).using(manager).start() == "v1")
            clock.advance(by: .seconds(15))
            let stale = try await Self.user(server).using(manager).startWithMetadata()
            #expect(stale.value == "v1")
            guard case .stale(let age, .revalidating) = stale.source, Self.isAbout(age, 15) else {
                Issue.record("expected a stale reply while revalidating, got \(stale.source)")
                return
            }
            try await waitUntil { recorder.seen.count == 4 }
            #expect(server.requests.count == 2)
            let fresh = try await Self.user(server).using(manager).startWithMetadata()
            #expect(fresh.value == "v2" && Self.age(fresh.source) != nil)
        }
        #expect(recorder.seen == ["miss", "stored", "stale", "stored", "hit"])
    }

    @Test("A mutation with invalidates: drops the tagged replies when it succeeds, and only then")
    func invalidation() async throws {
        let failing = NIOLockedValueBox(true)
        try await Self.withCache({ request in
            if request.method == .post {
                return failing.withLockedValue({ $0 }) ? Self.reply("no", status: .internalServerError) : Self.reply("ok")
            }
            return Self.reply("ann", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            let update = APIDefinition(
                name: "UpdateUser", wire: .http(.post, path: "/users/7"), invalidates: ["users"],
                defaults: APIDefaults(baseURL: server.baseURL)
            )
            _ = try await Self.user(server).using(manager).start()
            _ = try await Self.user(server, id: 8).using(manager).start()
            _ = try? await BaseAPI(definition: update, response: .text).using(manager).start()
            _ = try await Self.user(server).using(manager).start()
            #expect(server.requests.count == 3)

            failing.withLockedValue { $0 = false }
            _ = try await BaseAPI(definition: update, response: .text).using(manager).start()
            #expect(manager.cache.count == 0)
            _ = try await Self.user(server).using(manager).start()
            #expect(server.requests.count == 5)
        }
    }

    @Test("manager.cache removes one call's replies, a tag's, or all")
    func removal() async throws {
        try await Self.withCache({ _ in Self.reply("ann", [("Cache-Control", "max-age=60")]) }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            _ = try await Self.user(server).using(manager).start()
            _ = try await Self.user(server, id: 8).using(manager).start()
            #expect(try manager.cache.remove(Self.user(server)) == 1)
            _ = try await Self.user(server, id: 8).using(manager).start()
            #expect(server.requests.count == 2)
            _ = try await Self.user(server).using(manager).start()
            #expect(server.requests.count == 3)
            #expect(manager.cache.removeAll(tagged: "users") == 2)
            _ = try await Self.user(server).using(manager).start()
            manager.cache.removeAll()
            #expect(manager.cache.count == 0 && manager.cache.bytes == 0)
        }
    }

    @Test("Concurrent misses share one request")
    func concurrentMisses() async throws {
        let managerBox = NIOLockedValueBox<APIManager?>(nil)
        try await Self.withCache({ _ in
            let deadline = ContinuousClock.now + .seconds(2)
            while managerBox.withLockedValue({ $0 })?.coalescedWaiterCount != 3, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            return Self.reply("ann", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            managerBox.withLockedValue { $0 = manager }
            async let first = Self.user(server).using(manager).start()
            async let second = Self.user(server).using(manager).start()
            async let third = Self.user(server).using(manager).start()
            #expect(try await [first, second, third] == ["ann", "ann", "ann"])
            #expect(server.requests.count == 1)
        }
    }

    @Test("A stored reply the API's type no longer reads is dropped, and the server answers")
    func undecodableEntry() async throws {
        try await Self.withCache(Self.counting {
            $0 == 1 ? Self.reply("ann", [("Cache-Control", "max-age=60")]) : .json("42")
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            #expect(try await Self.user(server).using(manager).start() == "ann")
            let definition = Self.user(server).definition
            let number = try await BaseAPI<Int>(definition: definition, response: .json, request: RequestBuilder().path("id", 7)).using(manager).start()
            #expect(number == 42)
            #expect(server.requests.count == 2)
        }
    }

    @Test("The logging interceptor logs what the cache did; the metrics interceptor counts it")
    func visibility() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "apigen-test") { _ in handler }
        logger.logLevel = .debug
        let metrics = TestMetrics()
        try await Self.withCache(interceptors: [LoggingInterceptor(logger: logger), MetricsInterceptor(factory: metrics)], { _ in
            Self.reply("ann", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            _ = try await Self.user(server).using(manager).start()
            clock.advance(by: .seconds(12))
            _ = try await Self.user(server).using(manager).start()
        }
        let lines = handler.entries.map(\.message.description)
        #expect(lines.contains("⚑ cache miss GetUser"))
        #expect(lines.contains { $0.hasPrefix("⚑ cache stored GetUser (") })
        #expect(lines.contains { $0.hasPrefix("⚑ cache hit GetUser (age ") && $0.hasSuffix(" s)") })
        let dimensions = [("api", "GetUser"), ("kind", "rest")]
        #expect(metrics.counterTotal(label: "apigen_cache_events_total", dimensions: dimensions + [("event", "hit")]) == 1)
        #expect(metrics.counterTotal(label: "apigen_cache_events_total", dimensions: dimensions + [("event", "miss")]) == 1)
        #expect(metrics.counterTotal(label: "apigen_cache_stored_bytes_total", dimensions: dimensions) > 3)
        let gauge = try metrics.expectGauge("apigen_cache_bytes")
        #expect((gauge.lastValue ?? 0) > 0)
    }

    @Test("A JSON-RPC method marked safe is cached under the call it makes, whatever its request id; one not marked never is")
    func jsonRPC() async throws {
        try await Self.withCache(JSONRPCServer.handle) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            func subtract(safe: Bool, _ minuend: Int, _ subtrahend: Int) -> BaseAPI<Int> {
                let definition = APIDefinition(
                    name: "Subtract", wire: .jsonRPC(JSONRPCMethod("subtract", path: "/rpc")), safe: safe, cache: CacheSettings(ttl: 60),
                    defaults: APIDefaults(baseURL: server.baseURL)
                )
                return BaseAPI(definition: definition, response: .json, request: RequestBuilder().positional(minuend).positional(subtrahend)).using(manager)
            }
            #expect(try await subtract(safe: true, 42, 23).start() == 19)
            let again = try await subtract(safe: true, 42, 23).startWithMetadata()
            #expect(again.value == 19 && again.source.isFromCache)
            #expect(try await subtract(safe: true, 23, 42).start() == -19)
            #expect(server.requests.count == 2)
            for _ in 0..<2 { _ = try await subtract(safe: false, 1, 1).start() }
            #expect(server.requests.count == 4)
        }
    }

    @Test("From the manifest to the wire: GetProfile is kept a minute, CreateUser's invalidates: drops it")
    func generatedClient() async throws {
        let user = #"{"id": 7, "name": "Ann", "role": "member", "tags": [], "created_at": "2026-01-01T00:00:00Z"}"#
        try await Self.withCache({ request in
            request.method == .post ? .json(user, status: .created) : Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: user))
            )
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            let first = try await GetProfileAPI().using(manager).startWithMetadata()
            clock.advance(by: .seconds(59))
            let second = try await GetProfileAPI().using(manager).startWithMetadata()
            #expect(first.value.name == "Ann" && second.value.name == "Ann")
            #expect(!first.source.isFromCache && second.source.isFromCache)
            #expect(server.requests.count == 1)

            _ = try await CreateUserAPI(name: "Bo", role: .member, idempotencyKey: UUID()).using(manager).start()
            _ = try await GetProfileAPI().using(manager).start()
            #expect(server.requests.map(\.path) == ["/v1/me", "/v1/users", "/v1/me"])
        }
    }

    @Test("A token refreshed during a call (a 401, then a new one) keys the reply: the next call with that token is a hit")
    func refreshedToken() async throws {
        struct Tokens: TokenProvider {
            func initialToken() async throws -> String { "rejected" }
            func refreshToken(replacing rejected: String) async throws -> String { "good" }
        }
        try await Self.withCache(interceptors: [AuthenticationInterceptor(provider: Tokens(), hosts: .any)], { request in
            request.headers[.authorization] == "Bearer good" ? Self.reply("ann", [("Cache-Control", "max-age=60")]) : Self.reply("", status: .unauthorized)
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            #expect(try await Self.user(server).using(manager).start() == "ann")
            let again = try await Self.user(server).using(manager).startWithMetadata()
            #expect(again.value == "ann" && again.source.isFromCache)
            #expect(server.requests.map { $0.headers[.authorization] } == ["Bearer rejected", "Bearer good"])
            #expect(manager.cache.removeAll(credential: "good") == 1)
        }
    }

    @Test("A caller who walks away from a miss leaves nothing stored; the next call fetches and stores")
    func cancelledMiss() async throws {
        let served = NIOLockedValueBox(0)
        try await Self.withCache({ _ in
            let count = served.withLockedValue { $0 += 1; return $0 }
            if count == 1 { try await Task.sleep(for: .seconds(2)) }
            return Self.reply("v\(count)", [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            let call = Task { try await Self.user(server).using(manager).start() }
            try await waitUntil { server.requests.count == 1 }
            call.cancel()
            let error = await expectAPIError { try await call.value }
            #expect(error?.reason == .cancelled)
            #expect(manager.cache.count == 0)
            #expect(try await Self.user(server).using(manager).start() == "v2")
            #expect(try await Self.user(server).using(manager).startWithMetadata().source.isFromCache)
            #expect(server.requests.count == 2)
        }
    }

    @Test("A reply larger than the whole cache is answered, not stored, and nothing else is pushed out for it")
    func replyLargerThanTheCache() async throws {
        let recorder = CacheRecorder()
        try await Self.withCache(recorder: recorder, storage: .memory(maxBytes: 8_192), { request in
            let size = request.path.hasSuffix("/8") ? 20_000 : 10
            return Self.reply(String(repeating: "x", count: size), [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager, _: ManualClock) async throws in
            _ = try await Self.user(server, id: 7).using(manager).start()
            for _ in 0..<2 {
                #expect(try await Self.user(server, id: 8).using(manager).start().count == 20_000)
            }
            #expect(manager.cache.count == 1 && manager.cache.bytes <= 8_192)
            #expect(try await Self.user(server, id: 7).using(manager).startWithMetadata().source.isFromCache)
            #expect(server.requests.count == 3)
        }
        #expect(recorder.seen == ["miss", "stored", "miss", "miss", "hit"])
    }
}
