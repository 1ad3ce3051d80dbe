@testable import APIAsyncHTTPClient
@testable import APIDiskCache
@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// The caller whose token an interceptor attaches: a server that calls an upstream API for many
/// users keeps the user's token in a task-local value.
enum Caller {
    @TaskLocal static var token: String?
}

/// Puts `Caller.token`, after `prefix`, in the field `name`: as a bearer token, as a server's own
/// authentication interceptor would, or as a session cookie.
struct CallerCredential: APIInterceptor {
    var name: HTTPField.Name = .authorization
    var prefix = "Bearer "

    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        guard let token = Caller.token else { return request }
        var request = request
        request.headerFields[name] = prefix + token
        return request
    }
}

/// Sets `X-Tenant-ID` to the tenant `tenant` holds, as a multi-tenant app's interceptor would.
struct TenantHeader: APIInterceptor {
    let tenant: NIOLockedValueBox<String>

    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        var request = request
        request.headerFields[HTTPField.Name("X-Tenant-ID")!] = tenant.withLockedValue { $0 }
        return request
    }
}

/// A token provider whose first token is `initial` and whose refreshes hand out `refreshed`.
struct FixedTokens: TokenProvider {
    let initial: String
    let refreshed: String
    func initialToken() async throws -> String { initial }
    func refreshToken(replacing rejected: String) async throws -> String { refreshed }
}

/// A token provider that names its account but cannot get a token: an app offline at launch
/// whose first token comes from the network.
struct OfflineTokens: TokenProvider {
    let name: String?
    struct Offline: Error {}
    func initialToken() async throws -> String { throw Offline() }
    func refreshToken(replacing rejected: String) async throws -> String { throw Offline() }
    func account() async -> String? { name }
}

/// A token provider that names its account and hands out `token`.
struct NamedTokens: TokenProvider {
    let name: String
    let token: String
    func initialToken() async throws -> String { token }
    func refreshToken(replacing rejected: String) async throws -> String { token }
    func account() async -> String? { name }
}

/// One user's cached reply never reaches another: the cache, the duplicate gate and `Vary` read
/// the request as sent, with what interceptors and the cookie jar add to it, against real servers.
@Suite("Every user's replies stay theirs")
struct CallerSeparationTests {
    /// `GET /me/{id}` with `cache`, answered as text.
    static func me(_ server: LoopbackServer, id: Int = 1, cache: CacheSettings = CacheSettings(ttl: 300)) -> BaseAPI<String> {
        ResponseCacheTests.user(server, id: id, cache: cache)
    }

    /// The transport under test, keeping the manager's cookies: URLSession's does; AsyncHTTPClient's
    /// is made to, as the manager, not the transport, keeps them.
    static var cookieKeepingTransport: TransportFactory {
        testHTTPTransport.keepsCookies ? testHTTPTransport : .http(name: "asynchttpclient-cookies", keepsCookies: true) { key, settings in
            try AsyncHTTPClientTransport(host: key.host, settings: settings)
        }
    }

    @Test("Two users' concurrent calls of a cached API, each token attached by an interceptor, are two requests with two replies")
    func concurrentUsers() async throws {
        try await withServer(configure: { $0.interceptors = [CallerCredential()] }, { request in
            try await Task.sleep(for: .milliseconds(300))
            return ResponseCacheTests.reply("for " + (request.headers[.authorization] ?? "nobody"), [("Cache-Control", "max-age=60")])
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            async let ann = Caller.$token.withValue("ann") { try await Self.me(server, cache: .http).using(manager).start() }
            try await Task.sleep(for: .milliseconds(50))
            async let bob = Caller.$token.withValue("bob") { try await Self.me(server, cache: .http).using(manager).start() }
            #expect(try await ann == "for Bearer ann")
            #expect(try await bob == "for Bearer bob")
            #expect(server.requests.count == 2)
            // Each reply is kept for its own user alone.
            #expect(try await Caller.$token.withValue("bob") { try await Self.me(server, cache: .http).using(manager).start() } == "for Bearer bob")
            #expect(try await Caller.$token.withValue("ann") { try await Self.me(server, cache: .http).using(manager).start() } == "for Bearer ann")
            #expect(server.requests.count == 2)
        }
    }

    @Test("Two users' concurrent calls under frequency: coalesce are not merged; one user's are")
    func coalescingByCredential() async throws {
        try await withServer(configure: { $0.interceptors = [CallerCredential()] }, { request in
            try await Task.sleep(for: .milliseconds(300))
            return .text("for " + (request.headers[.authorization] ?? "nobody"))
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            func call(_ token: String) async throws -> String {
                let definition = APIDefinition(
                    name: "GetMe", wire: .http(.get, path: "/me"), frequency: .coalesce, defaults: APIDefaults(baseURL: server.baseURL)
                )
                return try await Caller.$token.withValue(token) { try await BaseAPI(definition: definition, response: .text).using(manager).start() }
            }
            async let ann = call("ann")
            async let annAgain = call("ann")
            async let bob = call("bob")
            let replies = try await [ann, annAgain, bob]
            #expect(replies == ["for Bearer ann", "for Bearer ann", "for Bearer bob"])
            #expect(server.requests.count == 2)
        }
    }

    @Test("Under scope: shared, a public reply that varies on Authorization is matched against the token as sent: two managers on one disk file")
    func varyOnAuthorization() async throws {
        let server = try await LoopbackServer.start { request in
            ResponseCacheTests.reply(
                "catalog for " + (request.headers[.authorization] ?? "nobody"),
                [("Cache-Control", "public, max-age=300"), ("Vary", "Authorization")]
            )
        }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            let shared = CacheSettings(scope: .shared)
            let ann = CacheRecorder(), bob = CacheRecorder()
            ann.token.withLockedValue { $0 = "ann" }
            bob.token.withLockedValue { $0 = "bob" }
            try await DiskCacheTests.withDiskManager(url, recorder: ann) { (annManager: APIManager) async throws in
                try await DiskCacheTests.withDiskManager(url, recorder: bob) { (bobManager: APIManager) async throws in
                    #expect(try await Self.me(server, cache: shared).using(annManager).start() == "catalog for Bearer ann")
                    #expect(try await Self.me(server, cache: shared).using(bobManager).start() == "catalog for Bearer bob")
                    #expect(server.requests.count == 2)
                    #expect(try await Self.me(server, cache: shared).using(bobManager).start() == "catalog for Bearer bob")
                    #expect(server.requests.count == 2)
                }
            }
        }
    }

    @Test("A header an interceptor adds keeps replies apart: switching tenant never brings the other tenant's reply back")
    func tenantHeader() async throws {
        let tenant = NIOLockedValueBox("acme")
        try await withServer(configure: { $0.interceptors = [TenantHeader(tenant: tenant)]; $0.cache = .memory() }, { request in
            ResponseCacheTests.reply(
                "orders of " + (request.headers[HTTPField.Name("X-Tenant-ID")!] ?? "nobody"),
                [("Cache-Control", "public, max-age=300"), ("Vary", "X-Tenant-ID")]
            )
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            let shared = CacheSettings(scope: .shared)
            #expect(try await Self.me(server, cache: shared).using(manager).start() == "orders of acme")
            tenant.withLockedValue { $0 = "globex" }
            #expect(try await Self.me(server, cache: shared).using(manager).start() == "orders of globex")
            #expect(server.requests.count == 2)
            tenant.withLockedValue { $0 = "acme" }
            #expect(try await Self.me(server, cache: shared).using(manager).start() == "orders of acme")
        }
    }

    @Test("A cookie session is an account: after signing in as another user on the same manager, the first user's reply is not served")
    func cookieSession() async throws {
        try await withServer(configure: { $0.httpTransport = Self.cookieKeepingTransport }, { request in
            if request.path.hasPrefix("/login/") {
                let who = request.path.dropFirst("/login/".count)
                return Response(status: .ok, headers: [.setCookie: "sid=\(who); Path=/"])
            }
            return ResponseCacheTests.reply("me: " + (request.headers[.cookie] ?? "nobody"))
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            func login(_ who: String) async throws {
                let definition = APIDefinition(name: "Login", method: .post, path: "/login/\(who)", defaults: APIDefaults(baseURL: server.baseURL))
                _ = try await BaseAPI(definition: definition, response: .text).using(manager).start()
            }
            try await login("ann")
            #expect(try await Self.me(server).using(manager).start() == "me: sid=ann")
            #expect(try await Self.me(server).using(manager).start() == "me: sid=ann")
            try await login("bob")
            #expect(try await Self.me(server).using(manager).start() == "me: sid=bob")
            #expect(server.requests.filter { $0.path.hasPrefix("/users") }.count == 2)
            // A log-out names the session cookie: that account's replies go, the other's stay.
            #expect(manager.cache.removeAll(credential: "sid=ann") == 1)
            #expect(manager.cache.count == 1)
        }
    }

    @Test("A refreshed token stays its account's: a log-out by either token removes the replies stored under both, across a restart")
    func refreshKeepsTheAccount() async throws {
        let rejectsFirstToken = NIOLockedValueBox(false)
        let server = try await LoopbackServer.start { request in
            let authorization = request.headers[.authorization] ?? "nobody"
            if authorization == "Bearer t1", rejectsFirstToken.withLockedValue({ $0 }) {
                return ResponseCacheTests.reply("expired", status: .unauthorized)
            }
            return ResponseCacheTests.reply("for " + authorization)
        }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            func withManager(initialToken: String, _ body: (APIManager) async throws -> Void) async throws {
                var configuration = APIManager.Configuration()
                configuration.httpTransport = testHTTPTransport
                configuration.interceptors = [AuthenticationInterceptor(provider: FixedTokens(initial: initialToken, refreshed: "t2"))]
                configuration.cache = .disk(at: url)
                try await APITestSupport.withManager(configuration) { manager in try await body(manager) }
            }
            try await withManager(initialToken: "t1") { (manager: APIManager) async throws in
                #expect(try await Self.me(server, id: 1).using(manager).start() == "for Bearer t1")
                rejectsFirstToken.withLockedValue { $0 = true }
                #expect(try await Self.me(server, id: 2).using(manager).start() == "for Bearer t2")
                #expect(manager.cache.count == 2)
            }
            // The app starts again with the refreshed token, read from its keychain: the reply
            // stored under the first token is its account's, and still found.
            try await withManager(initialToken: "t2") { (manager: APIManager) async throws in
                let reply = try await Self.me(server, id: 1).using(manager).startWithMetadata()
                #expect(reply.value == "for Bearer t1" && reply.source.isFromCache)
                #expect(manager.cache.removeAll(credential: "t2") == 2)
                #expect(manager.cache.count == 0)
            }
        }
    }

    @Test("A log-out by the first token of an account removes what its refreshed token stored")
    func logOutByFirstToken() async throws {
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
            _ = try await Self.me(server, id: 1).using(manager).start()
            rejectsFirstToken.withLockedValue { $0 = true }
            _ = try await Self.me(server, id: 2).using(manager).start()
            #expect(manager.cache.removeAll(credential: "Bearer t1") == 2)
            #expect(manager.cache.count == 0)
        }
    }

    @Test("A named account is answered from the cache while no token can be had; a call that must be sent fails; unnamed, nothing is served")
    func namedAccountOffline() async throws {
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
                #expect(try await Self.me(server, id: 1).using(manager).start() == "for Bearer t1")
            }
            try await withManager(OfflineTokens(name: "user-42")) { (manager: APIManager) async throws in
                let cached = try await Self.me(server, id: 1).using(manager).startWithMetadata(options: APICallOptions(cachePolicy: .cacheOnly))
                #expect(cached.value == "for Bearer t1" && cached.source.isFromCache)
                #expect(try await Self.me(server, id: 1).using(manager).start() == "for Bearer t1")
                let error = await #expect(throws: APIError.self) { try await Self.me(server, id: 2).using(manager).start() }
                guard case .unauthorized? = error?.reason else {
                    Issue.record("expected unauthorized, got \(String(describing: error))")
                    return
                }
                #expect(server.requests.count == 1)
            }
            try await withManager(OfflineTokens(name: nil)) { (manager: APIManager) async throws in
                await #expect(throws: APIError.self) {
                    try await Self.me(server, id: 1).using(manager).start(options: APICallOptions(cachePolicy: .cacheOnly))
                }
            }
            try await withManager(NamedTokens(name: "user-42", token: "t2")) { (manager: APIManager) async throws in
                #expect(try await Self.me(server, id: 1).using(manager).startWithMetadata().source.isFromCache)
                #expect(manager.cache.removeAll(credential: "user-42") == 1)
            }
        }
    }
}
