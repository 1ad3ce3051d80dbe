import APIRuntime
import APITestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// Cookies and cached replies stay with the manager that got them: two managers are two accounts.
@Suite("Cookies and URL caching, per manager, on a loopback server")
struct CookieTests {
    /// A server that sets `session=<who>` on `/login/<who>`, answers everything else with a
    /// counter the client must not cache, and records what each request carried.
    static func startServer() async throws -> LoopbackServer {
        let served = NIOLockedValueBox(0)
        return try await LoopbackServer.start { request in
            if request.path.hasPrefix("/login/") {
                let who = request.path.dropFirst("/login/".count)
                return Response(status: .ok, headers: [.setCookie: "session=\(who); Path=/"])
            }
            let count = served.withLockedValue { $0 += 1; return $0 }
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain", .cacheControl: "public, max-age=600"],
                body: .init(byteBuffer: ByteBuffer(string: "\(count)"))
            )
        }
    }

    static func configuration(_ cookies: CookiePolicy) -> APIManager.Configuration {
        var configuration = APIManager.Configuration()
        configuration.httpTransport = testHTTPTransport
        configuration.cookies = cookies
        return configuration
    }

    static func get(_ path: String, from server: LoopbackServer, _ manager: APIManager) async throws -> String {
        let definition = APIDefinition(name: "Get", method: .get, path: path, defaults: APIDefaults(baseURL: server.baseURL))
        return try await BaseAPI(definition: definition, response: .text).using(manager).start()
    }

    /// The `Cookie` header of the last request the server saw for `path`.
    static func cookie(of path: String, on server: LoopbackServer) -> String? {
        server.requests.last { $0.path == path }?.headers[.cookie]
    }

    /// Whether the transport under test keeps cookies at all (AsyncHTTPClient keeps none).
    static var keepsCookies: Bool { testHTTPTransport.keepsCookies }

    @Test("A cookie one manager receives is sent by its later calls and never by another manager's")
    func perManager() async throws {
        let server = try await Self.startServer()
        try await withManager(Self.configuration(.perManager)) { alice in
            try await withManager(Self.configuration(.perManager)) { bob in
                _ = try await Self.get("/login/alice", from: server, alice)
                _ = try await Self.get("/alice/profile", from: server, alice)
                _ = try await Self.get("/bob/profile", from: server, bob)
                #expect(Self.cookie(of: "/alice/profile", on: server) == (Self.keepsCookies ? "session=alice" : nil))
                #expect(Self.cookie(of: "/bob/profile", on: server) == nil)

                _ = try await Self.get("/login/bob", from: server, bob)
                _ = try await Self.get("/alice/again", from: server, alice)
                _ = try await Self.get("/bob/again", from: server, bob)
                #expect(Self.cookie(of: "/alice/again", on: server) == (Self.keepsCookies ? "session=alice" : nil))
                #expect(Self.cookie(of: "/bob/again", on: server) == (Self.keepsCookies ? "session=bob" : nil))
            }
        }
    }

    @Test("A cookie a redirect sets goes with the request the redirect leads to", .enabled(if: CookieTests.keepsCookies))
    func redirectSetsCookie() async throws {
        let server = try await LoopbackServer.start { request in
            switch request.path {
            case "/signin": return Response(status: .found, headers: [.location: "/home", .setCookie: "sid=erin; Path=/"])
            default: return .text("home: " + (request.headers[.cookie] ?? "no cookie"))
            }
        }
        try await withManager(Self.configuration(.perManager)) { (manager: APIManager) async throws in
            #expect(try await Self.get("/signin", from: server, manager) == "home: sid=erin")
            #expect(try await Self.get("/again", from: server, manager) == "home: sid=erin")
        }
    }

    @Test("With cookies off, none is kept or sent")
    func none() async throws {
        let server = try await Self.startServer()
        try await withManager(Self.configuration(.none)) { manager in
            _ = try await Self.get("/login/carol", from: server, manager)
            _ = try await Self.get("/carol/profile", from: server, manager)
            #expect(Self.cookie(of: "/carol/profile", on: server) == nil)
        }
    }

    @Test("The system's jar is shared, as asked", .enabled(if: CookieTests.keepsCookies))
    func system() async throws {
        let server = try await Self.startServer()
        defer {
            for cookie in HTTPCookieStorage.shared.cookies ?? [] where cookie.value == "dave" {
                HTTPCookieStorage.shared.deleteCookie(cookie)
            }
        }
        try await withManager(Self.configuration(.system)) { first in
            try await withManager(Self.configuration(.system)) { second in
                _ = try await Self.get("/login/dave", from: server, first)
                _ = try await Self.get("/dave/profile", from: server, second)
                #expect(Self.cookie(of: "/dave/profile", on: server) == "session=dave")
            }
        }
    }

    @Test("A reply the server lets be cached for ten minutes is asked for again: nothing answers from URLCache")
    func noURLCache() async throws {
        let server = try await Self.startServer()
        try await withManager(Self.configuration(.perManager)) { manager in
            let first = try await Self.get("/counter", from: server, manager)
            let second = try await Self.get("/counter", from: server, manager)
            #expect(first != second)
            #expect(server.requests.filter { $0.path == "/counter" }.count == 2)
        }
    }
}
