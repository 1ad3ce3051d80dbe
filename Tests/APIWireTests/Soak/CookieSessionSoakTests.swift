import APIRuntime
import APITestSupport
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// Users who sign in one after another through the manager's own cookie jar, as an app's do,
/// each reading cached APIs at once: straight, and through a redirect to the account host, whose
/// session cookie the redirect picks up. No reply may ever reach a user other than its own.
@Suite("Soak: cookie sessions through the manager's jar", .enabled(if: soakCalls > 0))
struct CookieSessionSoakTests {
    @Test("Sign-ins through the jar, with cached reads straight and through a redirect: every reply is the signed-in user's", .timeLimit(.minutes(10)))
    func sessions() async throws {
        let accountHost = NIOLockedValueBox("")
        let server = try await LoopbackServer.start(recording: false) { request in
            if request.path.hasPrefix("/login/") {
                return Response(status: .ok, headers: [.setCookie: "sid=\(request.path.dropFirst("/login/".count)); Path=/"])
            }
            if request.path.hasPrefix("/hop/") {
                // The account service, another name of the same company's servers.
                let account = accountHost.withLockedValue { $0 }
                return Response(status: .found, headers: [.location: "\(account)/me/\(request.path.dropFirst("/hop/".count))"])
            }
            let user = request.headers[.cookie]?.split(separator: "=").last.map(String.init) ?? "nobody"
            return ResponseCacheTests.reply("me: " + user, [("Cache-Control", "max-age=300")])
        }
        var configuration = APIManager.Configuration()
        configuration.httpTransport = CallerSeparationTests.cookieKeepingTransport
        let account = server.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        accountHost.withLockedValue { $0 = account }
        func read(_ path: String, at base: String) -> BaseAPI<String> {
            let definition = APIDefinition(name: "GetMe", wire: .http(.get, path: path), cache: CacheSettings(ttl: 300), defaults: APIDefaults(baseURL: base))
            return BaseAPI(definition: definition, response: .text)
        }
        let rounds = max(20, soakCalls / 20)
        var crossed: [String] = []
        try await withManager(configuration) { manager in
            for round in 0..<rounds {
                let user = "user\(round % 8)"
                let login = APIDefinition(name: "Login", method: .post, path: "/login/\(user)", defaults: APIDefaults(baseURL: account))
                _ = try await BaseAPI(definition: login, response: .text).using(manager).start()
                // Reads of this session at once: straight (the answer may come from the cache,
                // under this session's account) and through the redirect (never from the cache).
                let replies = try await withThrowingTaskGroup(of: String.self) { group in
                    for page in 0..<4 {
                        group.addTask { try await read("/me/\(page)", at: account).using(manager).start() }
                        group.addTask { try await read("/hop/\(page)", at: server.baseURL).using(manager).start() }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                crossed += replies.filter { $0 != "me: " + user }.map { "round \(round), \(user): \($0)" }
            }
            print("soak: \(rounds) sign-ins through the cookie jar over \(testHTTPTransport.name), \(manager.cache.count) replies cached, \(crossed.count) crossed")
        }
        #expect(crossed.isEmpty, "replies that reached another user: \(crossed.prefix(10))")
    }
}
