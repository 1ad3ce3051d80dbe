@testable import APIDiskCache
@testable import APIRuntime
import APITestSupport
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import InMemoryLogging
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// Whose a reply is, and what a log-out removes: across token refreshes on any call, API keys in
/// the query, managers sharing a disk file, a stale reply's refresh in the background, a token
/// fetch that hangs, and a redirect that picks up another host's session cookie.
@Suite("Accounts and log-out on loopback servers", .serialized)
struct AccountLogOutTests {
    /// A cached `GET /users/{id}`.
    static func cached(_ server: LoopbackServer, id: Int) -> BaseAPI<String> {
        ResponseCacheTests.user(server, id: id, cache: CacheSettings(ttl: 300))
    }

    /// An API without `cache:`.
    static func uncached(_ server: LoopbackServer) -> BaseAPI<String> {
        let definition = APIDefinition(name: "Ping", wire: .http(.get, path: "/ping"), defaults: APIDefaults(baseURL: server.baseURL))
        return BaseAPI(definition: definition, response: .text)
    }

    @Test("A token refreshed during a call of an API without cache: stays its account's; a log-out by the current token removes every reply")
    func refreshDuringUncachedCall() async throws {
        let rejectsFirstToken = NIOLockedValueBox(false)
        try await withServer(configure: {
            $0.interceptors = [AuthenticationInterceptor(provider: FixedTokens(initial: "t1", refreshed: "t2"))]
            $0.cache = .memory()
        }, { request in
            let authorization = request.headers[.authorization] ?? "nobody"
            if authorization == "Bearer t1", rejectsFirstToken.withLockedValue({ $0 }) {
                return ResponseCacheTests.reply("expired", status: .unauthorized)
            }
            return ResponseCacheTests.reply("for " + authorization)
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            #expect(try await Self.cached(server, id: 1).using(manager).start() == "for Bearer t1")
            rejectsFirstToken.withLockedValue { $0 = true }
            // The refresh happens on a call the cache does not see.
            #expect(try await Self.uncached(server).using(manager).start() == "for Bearer t2")
            #expect(try await Self.cached(server, id: 2).using(manager).start() == "for Bearer t2")
            #expect(manager.cache.count == 2)
            // Log-out with the token the app holds now.
            let removed = manager.cache.removeAll(credential: "t2")
            #expect(removed == 2)
            #expect(manager.cache.count == 0, "the first token's reply survived the log-out")
        }
    }

    @Test("An API key in the query (`api_key`, which the logs redact) is a credential a log-out can name", arguments: ["api_key", "access_token"])
    func queryCredentialLogOut(name: String) async throws {
        try await withServer(configure: { $0.cache = .memory() }, { _ in ResponseCacheTests.reply("private data") }) {
            (server: LoopbackServer, manager: APIManager) async throws in
            let definition = APIDefinition(
                name: "GetUser", wire: .http(.get, path: "/users/{id}"), cache: CacheSettings(ttl: 300), defaults: APIDefaults(baseURL: server.baseURL)
            )
            let api = BaseAPI(definition: definition, response: .text, request: RequestBuilder().path("id", 7).query(name, "QKEY-ann"))
            #expect(try await api.using(manager).start() == "private data")
            #expect(manager.cache.count == 1)
            #expect(manager.cache.removeAll(credential: "QKEY-ann") == 1)
            #expect(manager.cache.count == 0)
        }
    }

    @Test("A log-out through one manager of a shared disk file is not undone by another manager's call in flight")
    func logOutAcrossManagersInFlight() async throws {
        let server = try await LoopbackServer.start { request in
            try await Task.sleep(for: .milliseconds(600))
            return ResponseCacheTests.reply("for " + (request.headers[.authorization] ?? "nobody"))
        }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            let recorder = CacheRecorder()
            recorder.token.withLockedValue { $0 = "ann" }
            try await DiskCacheTests.withDiskManager(url, recorder: recorder) { (app: APIManager) async throws in
                try await DiskCacheTests.withDiskManager(url, recorder: recorder) { (widget: APIManager) async throws in
                    async let read = Self.cached(server, id: 1).using(widget).start()
                    try await Task.sleep(for: .milliseconds(200))
                    // Ann signs out in the app while the widget's read is on its way.
                    app.cache.removeAll(credential: "ann")
                    #expect(try await read == "for Bearer ann")
                    #expect(app.cache.count == 0, "ann's reply was stored on disk after her log-out")
                }
            }
        }
    }

    @Test("A log-out right after a stale reply is served is not undone by the background refresh")
    func staleRefreshAfterLogOut() async throws {
        let recorder = CacheRecorder()
        recorder.token.withLockedValue { $0 = "ann" }
        var survived = 0
        try await ResponseCacheTests.withCache(recorder: recorder, { _ in
            ResponseCacheTests.reply("ann's data", [("Cache-Control", "max-age=10, stale-while-revalidate=600")])
        }) { (server: LoopbackServer, manager: APIManager, clock: ManualClock) async throws in
            for id in 1...10 {
                _ = try await ResponseCacheTests.user(server, id: id).using(manager).start()
                clock.advance(by: .seconds(15))
                // Counted before the stale read: its background refresh may reach the server
                // before the read's caller runs on.
                let before = server.requests.count
                let stale = try await ResponseCacheTests.user(server, id: id).using(manager).startWithMetadata()
                guard case .stale = stale.source else {
                    Issue.record("expected a stale reply, got \(stale.source)")
                    return
                }
                // Ann signs out at once.
                manager.cache.removeAll(credential: "ann")
                try await waitUntil { server.requests.count > before }
                try await Task.sleep(for: .milliseconds(200))
                if manager.cache.count > 0 { survived += 1 }
                manager.cache.removeAll()
            }
        }
        #expect(survived == 0, "in \(survived) of 10 rounds the background refresh stored ann's reply after her log-out")
    }

    /// Names its account, and its first token never comes (offline, a request that waits).
    struct HangingTokens: TokenProvider {
        func initialToken() async throws -> String {
            try await Task.sleep(for: .seconds(30))
            return "late"
        }
        func refreshToken(replacing rejected: String) async throws -> String { "late" }
        func account() async -> String? { "user-42" }
    }

    @Test("A cache-only read of a named account is answered while the token fetch hangs")
    func hangingTokenFetch() async throws {
        let server = try await LoopbackServer.start { request in ResponseCacheTests.reply("for " + (request.headers[.authorization] ?? "nobody")) }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            func withManager(_ provider: any TokenProvider, _ body: (APIManager) async throws -> Void) async throws {
                var configuration = APIManager.Configuration()
                configuration.httpTransport = testHTTPTransport
                configuration.interceptors = [AuthenticationInterceptor(provider: provider)]
                configuration.cache = .disk(at: url)
                try await APITestSupport.withManager(configuration) { manager in try await body(manager) }
            }
            try await withManager(NamedTokens(name: "user-42", token: "t1")) { (manager: APIManager) async throws in
                #expect(try await Self.cached(server, id: 1).using(manager).start() == "for Bearer t1")
            }
            try await withManager(HangingTokens()) { (manager: APIManager) async throws in
                let started = ContinuousClock.now
                let reply = try? await Self.cached(server, id: 1).using(manager).startWithMetadata(
                    options: APICallOptions(timeout: .seconds(3), cachePolicy: .cacheOnly)
                )
                #expect(reply?.value == "for Bearer t1", "the stored reply was not served while the token fetch hung")
                #expect(ContinuousClock.now - started < .seconds(2), "answered at once, not at the deadline")
            }
        }
    }

    @Test("A redirect that picks up the session cookie for where it leads: the reply is not kept for callers without it")
    func redirectPicksUpSessionCookie() async throws {
        let accountHost = NIOLockedValueBox("")
        try await withServer(configure: { $0.httpTransport = CallerSeparationTests.cookieKeepingTransport }, { request in
            if request.path.hasPrefix("/account/login/") {
                let who = request.path.dropFirst("/account/login/".count)
                return Response(status: .ok, headers: [.setCookie: "sid=\(who); Path=/"])
            }
            if request.path.hasPrefix("/users/") {
                // The account service is another host of the same company (here: localhost).
                return Response(status: .found, headers: [.location: accountHost.withLockedValue { $0 } + "/account/me"])
            }
            return ResponseCacheTests.reply("me: " + (request.headers[.cookie] ?? "nobody"), [("Cache-Control", "max-age=300")])
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            accountHost.withLockedValue { $0 = server.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") }
            func login(_ who: String) async throws {
                let definition = APIDefinition(
                    name: "Login", method: .post, path: "/account/login/\(who)",
                    defaults: APIDefaults(baseURL: server.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost"))
                )
                _ = try await BaseAPI(definition: definition, response: .text).using(manager).start()
            }
            try await login("ann")
            #expect(try await CallerSeparationTests.me(server).using(manager).start() == "me: sid=ann")
            try await login("bob")
            let bob = try await CallerSeparationTests.me(server).using(manager).startWithMetadata()
            #expect(bob.value == "me: sid=bob", "bob was answered with ann's reply (from the cache: \(bob.source.isFromCache))")
        }
    }

    /// Attaches `Bearer ann` slowly, as an interceptor that reads the keychain or signs does.
    struct SlowToken: APIInterceptor {
        func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
            try? await Task.sleep(for: .milliseconds(300))
            var request = request
            request.headerFields[.authorization] = "Bearer ann"
            return request
        }
    }

    @Test("A log-out while the call's request is being made keeps its reply from being stored")
    func logOutWhileAdapting() async throws {
        try await withServer(configure: { $0.interceptors = [SlowToken()] }, { request in
            ResponseCacheTests.reply("for " + (request.headers[.authorization] ?? "nobody"))
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            async let read = Self.cached(server, id: 1).using(manager).start()
            try await Task.sleep(for: .milliseconds(100))
            manager.cache.removeAll(credential: "ann")
            #expect(try await read == "for Bearer ann")
            #expect(manager.cache.count == 0, "the reply of a call made before the log-out was stored after it")
        }
    }

    @Test("A log-out asked for while the disk file cannot be opened is made once it opens")
    func logOutWhileClosed() async throws {
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply("ann's data") }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            let recorder = CacheRecorder()
            recorder.token.withLockedValue { $0 = "ann" }
            try await DiskCacheTests.withDiskManager(url, recorder: recorder) { (manager: APIManager) async throws in
                _ = try await DiskCacheTests.profile(server).using(manager).start()
                #expect(manager.cache.count == 1)
            }
            // Another process holds the file past the store's wait when it opens.
            var holding = Configuration()
            holding.allowsUnsafeTransactions = true
            let holder = try DatabaseQueue(path: url.path, configuration: holding)
            let held = try await onThreadOfItsOwn { () throws -> DiskResponseStore in
                try holder.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
                return DiskResponseStore(url: url, maxBytes: 1 << 20, logger: Logger(label: "cache"))
            }
            #expect(held.count == 0, "a store that could not open holds nothing")
            #expect(held.removeAll(credential: held.digest("ann")) == 0)
            try holder.inDatabase { db in try db.execute(sql: "ROLLBACK") }
            // It opens again when it is next used, past its delay, and makes the removal first.
            try await Task.sleep(for: .seconds(5.5))
            _ = held.count
            try await waitUntil { held.removalMark > 0 }
            let rows = try await DatabaseQueue(path: url.path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reply") ?? 0 }
            #expect(rows == 0, "the log-out asked for while the file was held was lost")
        }
    }
}
