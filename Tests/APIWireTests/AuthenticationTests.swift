import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// Hands out `token-0`, then `token-1`, `token-2`… on each refresh, counting the refreshes.
final class CountingTokenProvider: TokenProvider {
    let refreshes = NIOLockedValueBox(0)
    let delay: Duration

    init(delay: Duration = .milliseconds(50)) {
        self.delay = delay
    }

    func initialToken() async throws -> String { "token-0" }

    func refreshToken(replacing rejected: String) async throws -> String {
        try await Task.sleep(for: delay)
        return "token-\(refreshes.withLockedValue { $0 += 1; return $0 })"
    }
}

@Suite("Token refresh on a loopback server")
struct AuthenticationTests {
    /// A server that accepts only `Bearer <valid>` and answers 401 to anything else.
    static func server(accepting valid: NIOLockedValueBox<String>, rpcCode: Int? = nil) -> LoopbackServer.Handler {
        { request in
            if request.headers[.authorization] == "Bearer \(valid.withLockedValue { $0 })" {
                if request.path == "/v1/jsonrpc" { return JSONRPCServer.handle(request) }
                return .json("1")
            }
            if let rpcCode, case .integer(let id)? = JSONValue.parse(request.body)?["id"] {
                return .json(#"{"jsonrpc": "2.0", "error": {"code": \#(rpcCode), "message": "session expired"}, "id": \#(id)}"#)
            }
            return .json(#"{"error": "expired"}"#, status: .unauthorized)
        }
    }

    @Test("50 concurrent 401s: exactly one refresh, and all 50 calls succeed after it")
    func singleFlightRefresh() async throws {
        let valid = NIOLockedValueBox("token-1")
        let provider = CountingTokenProvider()
        let auth = AuthenticationInterceptor(provider: provider)
        try await withServer(configure: { $0.interceptors = [auth] }, Self.server(accepting: valid)) { server, manager in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await CountUsersAPI().using(manager).start() }
                }
                var succeeded = 0
                for try await result in group where result == 1 { succeeded += 1 }
                #expect(succeeded == 50)
            }
            #expect(provider.refreshes.withLockedValue { $0 } == 1)
            #expect(await auth.refreshCount == 1)
            #expect(server.requests.count == 100)
            #expect(server.requests.filter { $0.headers[.authorization] == "Bearer token-1" }.count == 50)
        }
    }

    @Test("The token goes only to the origin the manifest declares, not to a base URL set elsewhere at run time, unless its host is named", arguments: [
        (AuthenticationInterceptor.Hosts.workspace, nil as String?), (.declared, nil), (.named(["127.0.0.1"]), "Bearer token-0"), (.any, "Bearer token-0"),
    ])
    func credentialsStayWithDeclaredHosts(hosts: AuthenticationInterceptor.Hosts, sentElsewhere: String?) async throws {
        let elsewhere = try await LoopbackServer.start { _ in .json("1") }
        try await withServer(configure: { $0.interceptors = [AuthenticationInterceptor(provider: CountingTokenProvider(), hosts: hosts)] }, { _ in .json("1") }) { home, manager in
            _ = try await CountUsersAPI().using(manager).start()
            #expect(home.requests.last?.headers[.authorization] == "Bearer token-0")
            let away = CountUsersAPI().using(manager)
            away.options.baseURL = elsewhere.baseURL + "/v1"
            _ = try await away.start()
            #expect(elsewhere.requests.count == 1)
            #expect(elsewhere.requests.last?.headers[.authorization] == sentElsewhere)
        }
    }

    @Test("A third party's API in the workspace gets no token by default, and its 401 refreshes nothing; the app's own server on another host gets it when its manifest says authenticated: true", arguments: [
        (AuthenticationInterceptor.Hosts.workspace, nil as String?), (.declared, "Bearer token-0"),
    ])
    func thirdPartyAPI(hosts: AuthenticationInterceptor.Hosts, sentToThirdParty: String?) async throws {
        let weather = try await LoopbackServer.start { request in
            request.target.contains("Nowhere")
                ? .json(#"{"error": "bad key"}"#, status: .unauthorized)
                : .json(#"{"city": "Oslo", "temperature": -3.5}"#)
        }
        let signIn = try await LoopbackServer.start { _ in .json("{}") }
        let provider = CountingTokenProvider(delay: .milliseconds(1))
        let configure = { (configuration: inout APIManager.Configuration) in
            configuration.interceptors = [AuthenticationInterceptor(provider: provider, maxRefreshes: 1, hosts: hosts)]
            configuration.baseURLOverrides["https://weather.example.net/v2"] = weather.baseURL + "/v2"
            configuration.baseURLOverrides["https://auth.example.com"] = signIn.baseURL
        }
        try await withServer(configure: configure, { _ in .json("1") }) { home, manager in
            _ = try await CountUsersAPI().using(manager).start()
            let forecast = try await GetForecastAPI(city: "Oslo", apiKey: "weather-key").using(manager).start()
            try await SignOutAPI().using(manager).start()

            #expect(forecast.temperature == -3.5)
            #expect(home.requests.last?.headers[.authorization] == "Bearer token-0")
            #expect(weather.requests.count == 1)
            #expect(weather.requests.last?.headers[.authorization] == sentToThirdParty)
            #expect(weather.requests.last?.headers[HTTPField.Name("X-Weather-Key")!] == "weather-key")
            #expect(signIn.requests.last?.target == "/oauth/revoke")
            #expect(signIn.requests.last?.headers[.authorization] == "Bearer token-0")

            // The third party's own 401 is its reply, not a reason to refresh the app's token.
            let refused = await expectAPIError { try await GetForecastAPI(city: "Nowhere", apiKey: "wrong").using(manager).start() }
            if sentToThirdParty == nil {
                guard case .httpStatus(401, _)? = refused?.reason else {
                    Issue.record("expected HTTP 401, got \(String(describing: refused))")
                    return
                }
                #expect(provider.refreshes.withLockedValue { $0 } == 0)
            } else {
                #expect(provider.refreshes.withLockedValue { $0 } == 1)
            }
        }
    }

    @Test("authenticated: false keeps the token off an API on the workspace's own server, whatever the hosts")
    func authenticatedFalse() async throws {
        let definition = APIDefinition(name: "Public", wire: .http(.get, path: "/users/count"), authenticated: false, defaults: CountUsersAPI.definition.defaults)
        final class PublicCountAPI: BaseAPI<Int>, @unchecked Sendable {}
        try await withServer(configure: { $0.interceptors = [AuthenticationInterceptor(provider: CountingTokenProvider(), hosts: .any)] }, { _ in .json("1") }) { home, manager in
            _ = try await CountUsersAPI().using(manager).start()
            _ = try await PublicCountAPI(definition: definition, response: .json).using(manager).start()
            #expect(home.requests.map { $0.headers[.authorization] } == ["Bearer token-0", nil])
        }
    }

    @Test("Named hosts other than the server's: no token at all")
    func namedHostsOnly() async throws {
        let auth = AuthenticationInterceptor(provider: CountingTokenProvider(), hosts: .named(["api.example.com"]))
        try await withServer(configure: { $0.interceptors = [auth] }, { _ in .json("1") }) { server, manager in
            _ = try await CountUsersAPI().using(manager).start()
            #expect(server.requests.first?.headers[.authorization] == nil)
        }
    }

    @Test("An API whose manifest skips the authentication interceptor is sent without credentials")
    func skippedBySignIn() async throws {
        let provider = CountingTokenProvider()
        try await withServer(configure: { $0.interceptors = [AuthenticationInterceptor(provider: provider)] }, { request in
            request.path.hasSuffix("/token") ? .json(#"{"access_token": "t", "token_type": "b", "expires_in": 1, "scopes": {}}"#) : .json("1")
        }) { server, manager in
            _ = try await SignInAPI(grantType: "password", username: "u", password: "p").using(manager).start()
            _ = try await CountUsersAPI().using(manager).start()
            #expect(server.requests.map { $0.headers[.authorization] } == [nil, "Bearer token-0"])
        }
    }

    @Test("A JSON-RPC error code can mean 'credentials rejected' too")
    func rpcErrorCode() async throws {
        let valid = NIOLockedValueBox("token-1")
        let provider = CountingTokenProvider()
        try await withServer(configure: { $0.interceptors = [AuthenticationInterceptor(provider: provider, rejectingRPCCodes: [-32001])] },
                             Self.server(accepting: valid, rpcCode: -32001)) { _, manager in
            let difference = try await SubtractAPI(minuend: 5, subtrahend: 3).using(manager).start()
            #expect(difference == 2)
            #expect(provider.refreshes.withLockedValue { $0 } == 1)
        }
    }

    @Test("After the bounded number of refreshes the call fails with .unauthorized")
    func givesUp() async throws {
        let valid = NIOLockedValueBox("never")
        let provider = CountingTokenProvider(delay: .milliseconds(1))
        try await withServer(configure: { $0.interceptors = [AuthenticationInterceptor(provider: provider, maxRefreshes: 2)] },
                             Self.server(accepting: valid)) { server, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .unauthorized(message: "the server still refused the credentials after 2 refreshes"))
            #expect(server.requests.count == 3)
            #expect(provider.refreshes.withLockedValue { $0 } == 2)
        }
    }

    @Test("A 401 during an upload streamed from a sequence: the body goes out once, whole; after the refresh the call fails .unauthorized, and started again it goes out with the new token")
    func readOnceUpload() async throws {
        let valid = NIOLockedValueBox("token-1")
        let provider = CountingTokenProvider(delay: .milliseconds(1))
        let auth = AuthenticationInterceptor(provider: provider)
        try await withServer(configure: { $0.interceptors = [auth] }, { request in
            request.headers[.authorization] == "Bearer \(valid.withLockedValue { $0 })" ? Response(status: .noContent) : .json("{}", status: .unauthorized)
        }) { server, manager in
            func upload() -> UploadDocumentAPI {
                let (chunks, writer) = AsyncStream.makeStream(of: Data.self)
                for index in 0..<3 { writer.yield(Data(repeating: UInt8(index), count: 10_000)) }
                writer.finish()
                return UploadDocumentAPI(name: "report", document: HTTPBody(chunks)).using(manager)
            }
            let error = await expectAPIError { try await upload().start() }
            #expect(error?.reason == .unauthorized(
                message: "the server refused the credentials, and the request's body is read once, so it was not sent again; the token is refreshed: start the call again"
            ))
            #expect(server.requests.map(\.body.count) == [30_000])
            #expect(provider.refreshes.withLockedValue { $0 } == 1)

            try await upload().start()
            #expect(server.requests.map(\.body.count) == [30_000, 30_000])
            #expect(server.requests.last?.headers[.authorization] == "Bearer token-1")
        }
    }

    @Test("A call sent again after a refresh is a new attempt: interceptors outside the authentication one see both")
    func resendIsAnAttempt() async throws {
        let valid = NIOLockedValueBox("token-1")
        let seen = NIOLockedValueBox<[String]>([])
        let outer = RecordingInterceptor(name: "outer", seen: seen)
        let auth = AuthenticationInterceptor(provider: CountingTokenProvider(delay: .milliseconds(1)))
        try await withServer(configure: { $0.interceptors = [outer, auth] }, Self.server(accepting: valid)) { server, manager in
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 1)
            #expect(seen.withLockedValue { $0 } == ["outer>rest:CountUsers#1", "outer<401", "outer>rest:CountUsers#2", "outer<200"])
            #expect(server.requests.map { $0.headers[.authorization] } == ["Bearer token-0", "Bearer token-1"])
        }
    }
}
