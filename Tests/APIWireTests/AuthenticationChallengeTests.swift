import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// A 401 that asks for credentials (`WWW-Authenticate`) is the call's reply, on every transport:
/// credentials are the interceptors' business, never the transport's.
@Suite("Authentication challenges on a loopback server")
struct AuthenticationChallengeTests {
    static func challenging(_ scheme: String) -> LoopbackServer.Handler {
        { _ in
            var response = Response.json(#"{"error": "who are you?"}"#, status: .unauthorized)
            response.headers[HTTPField.Name("WWW-Authenticate")!] = scheme
            return response
        }
    }

    @Test("A 401 with any WWW-Authenticate challenge is .httpStatus(401) at once", arguments: [
        #"Basic realm="api""#, #"Bearer realm="api", error="invalid_token""#, #"Digest realm="api", nonce="abc", qop="auth""#, "Negotiate",
    ])
    func challengeIsTheReply(scheme: String) async throws {
        try await withServer(Self.challenging(scheme)) { server, manager in
            let api = CountUsersAPI().using(manager)
            api.options.timeout = .seconds(20)
            let started = ContinuousClock.now
            let error = await expectAPIError { try await api.start() }
            guard case .httpStatus(let code, _)? = error?.reason else {
                Issue.record("expected .httpStatus(401), got \(String(describing: error))")
                return
            }
            #expect(code == 401)
            #expect(ContinuousClock.now - started < .seconds(10), "answered at once, not at the deadline")
            #expect(server.requests.count == 1)
        }
    }

    @Test("A challenged 401 reaches the authentication interceptor, which refreshes the token and sends the call again")
    func challengeRefreshes() async throws {
        let valid = NIOLockedValueBox("token-1")
        let auth = AuthenticationInterceptor(provider: CountingTokenProvider(delay: .milliseconds(1)))
        try await withServer(configure: { $0.interceptors = [auth] }, { request in
            if request.headers[.authorization] == "Bearer \(valid.withLockedValue { $0 })" { return .json("3") }
            var response = Response.json("{}", status: .unauthorized)
            response.headers[HTTPField.Name("WWW-Authenticate")!] = #"Bearer realm="api", error="invalid_token""#
            return response
        }) { server, manager in
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 3)
            #expect(server.requests.count == 2)
        }
    }
}
