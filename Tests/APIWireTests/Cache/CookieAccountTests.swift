@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// Sends the calls to `/users/…` to another host, as a regional-routing interceptor does
/// (`adapt` may change the URL, says `APIInterceptor`).
struct RegionalReroute: APIInterceptor {
    let port: Int

    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        guard let url = request.url, url.path.hasPrefix("/users"), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return request
        }
        components.host = "localhost"
        components.port = port
        var request = request
        request.url = components.url
        return request
    }
}


@Suite("Cookies the manager attaches, and the accounts they make")
struct CookieAccountTests {
    static func login(_ who: String, _ server: LoopbackServer, _ manager: APIManager) async throws {
        let definition = APIDefinition(name: "Login", method: .post, path: "/login/\(who)", defaults: APIDefaults(baseURL: server.baseURL))
        _ = try await BaseAPI(definition: definition, response: .text).using(manager).start()
    }

    static func loginHandler(_ request: WireTestSupport.RecordedRequest) -> Response? {
        guard request.path.hasPrefix("/login/") else { return nil }
        return Response(status: .ok, headers: [.setCookie: "sid=\(request.path.dropFirst("/login/".count)); Path=/"])
    }

    @Test("The jar's cookies for one host never reach the host an interceptor sends the call to")
    func cookiesFollowTheAdaptedURL() async throws {
        let elsewhere = try await LoopbackServer.start { _ in ResponseCacheTests.reply("from elsewhere") }
        try await withServer(configure: {
            $0.httpTransport = CallerSeparationTests.cookieKeepingTransport
            $0.interceptors = [RegionalReroute(port: elsewhere.port)]
        }, { request in Self.loginHandler(request) ?? ResponseCacheTests.reply("home") }) { (server: LoopbackServer, manager: APIManager) async throws in
            try await Self.login("ann", server, manager)
            #expect(try await CallerSeparationTests.me(server).using(manager).start() == "from elsewhere")
            #expect(elsewhere.requests.first?.headers[.cookie] == nil)
        }
    }

    @Test("A same-origin redirect keeps the Cookie an interceptor set, rather than the jar's")
    func redirectKeepsTheAdaptedCookie() async throws {
        try await withServer(configure: {
            $0.httpTransport = CallerSeparationTests.cookieKeepingTransport
            $0.interceptors = [CallerCredential(name: .cookie, prefix: "sid=")]
        }, { request in
            if let login = Self.loginHandler(request) { return login }
            if request.path.hasPrefix("/users/") { return Response(status: .found, headers: [.location: "/final"]) }
            return ResponseCacheTests.reply("me: " + (request.headers[.cookie] ?? "nobody"))
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            try await Self.login("ann", server, manager)
            #expect(try await Caller.$token.withValue("bob") { try await CallerSeparationTests.me(server).using(manager).start() } == "me: sid=bob")
        }
    }

    @Test("A load balancer's cookie, renewed on every reply, neither defeats the cache nor outlives a log-out by the session cookie")
    func renewedCookie() async throws {
        let served = NIOLockedValueBox(0)
        try await withServer(configure: {
            $0.httpTransport = CallerSeparationTests.cookieKeepingTransport
            $0.cache = .memory()
        }, { request in
            if let login = Self.loginHandler(request) { return login }
            let n = served.withLockedValue { $0 += 1; return $0 }
            return ResponseCacheTests.reply("me", [("Set-Cookie", "AWSALB=\(n); Path=/")])
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            try await Self.login("ann", server, manager)
            _ = try await CallerSeparationTests.me(server, id: 1).using(manager).start()
            _ = try await CallerSeparationTests.me(server, id: 2).using(manager).start()
            #expect(try await CallerSeparationTests.me(server, id: 1).using(manager).startWithMetadata().source.isFromCache)
            manager.cache.removeAll(credential: "sid=ann")
            #expect(manager.cache.count == 0)
        }
    }
}
