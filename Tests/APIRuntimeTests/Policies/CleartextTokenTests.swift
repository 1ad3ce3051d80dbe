@testable import APIRuntime
import APIWireFormat
import APITestSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import Testing

/// The authentication interceptor never sends its token in clear text to another machine unless
/// the API's manifest says so. No sockets: the rule is the interceptor's, before anything is sent.
@Suite("No token in clear text")
struct CleartextTokenTests {
    struct Tokens: TokenProvider {
        func initialToken() async throws -> String { "secret-token" }
        func refreshToken(replacing rejected: String) async throws -> String { "secret-token" }
    }

    /// Calls `GET /me` on `baseURL` with the authentication interceptor trusting every host, and
    /// returns the `Authorization` the transport saw, or the error.
    static func call(_ baseURL: String, authenticated: Bool? = nil) async throws -> Result<String?, APIError> {
        let sent = NIOLockedValueBox<[String?]>([])
        return try await withScriptedManager(clock: ManualClock(), configure: {
            $0.interceptors = [AuthenticationInterceptor(provider: Tokens(), hosts: .any)]
        }, respond: { request in
            sent.withLockedValue { $0.append(request.headerFields[.authorization]) }
            return (.status(.ok), Data())
        }) { manager in
            let definition = APIDefinition(name: "GetMe", wire: .http(.get, path: "/me"), authenticated: authenticated, defaults: APIDefaults(baseURL: baseURL))
            do {
                _ = try await BaseAPI(definition: definition, response: .noContent).using(manager).start()
                return .success(sent.withLockedValue { $0.first ?? nil })
            } catch let error as APIError {
                #expect(sent.withLockedValue { $0.isEmpty }, "nothing is sent")
                return .failure(error)
            }
        }
    }

    @Test("Over https, and over plain http to this machine, the token goes", arguments: [
        "https://api.example.com", "http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080", "http://LOCALHOST.:8080",
    ])
    func sent(baseURL: String) async throws {
        #expect(try await Self.call(baseURL).get() == "Bearer secret-token")
    }

    @Test("Over plain http to another machine, the call fails saying why, and nothing is sent", arguments: [
        "http://api.example.com", "http://10.0.0.7", "http://128.0.0.1", "http://localhost.example.com", "http://api.localhost", "http://0.0.0.0",
    ])
    func refused(baseURL: String) async throws {
        guard case .failure(let error) = try await Self.call(baseURL), case .invalidRequest(let message) = error.reason else {
            Issue.record("expected the call to fail as an invalid request")
            return
        }
        #expect(message.contains("clear text") && message.contains("authenticated: true"))
    }

    @Test("A manifest that declares the clear-text base URL and says authenticated: true sends it anyway; authenticated: false sends nothing and fails nothing")
    func manifestSaysSo() async throws {
        #expect(try await Self.call("http://api.example.com", authenticated: true).get() == "Bearer secret-token")
        #expect(try await Self.call("http://api.example.com", authenticated: false).get() == nil)
    }

    @Test("Plaintext gRPC is clear text as plain http is; grpcs and https are not")
    func schemes() {
        #expect(HostName.isCleartext(scheme: "grpc", host: "greeter.example.com"))
        #expect(!HostName.isCleartext(scheme: "grpc", host: "localhost"))
        #expect(!HostName.isCleartext(scheme: "grpcs", host: "greeter.example.com"))
        #expect(HostName.isCleartext(scheme: "HTTP", host: "API.example.com"))
        #expect(!HostName.isCleartext(scheme: "https", host: "api.example.com"))
        #expect(HostName.isLoopback("127.255.0.1") && HostName.isLoopback("LOCALHOST.") && !HostName.isLoopback("127.0.0.1.example.com"))
        #expect(!HostName.isLoopback("api.localhost") && !HostName.isLoopback("0.0.0.0"))
    }

    @Test("An API of the app's own (authenticated: true) declared on localhost, as the example's greeter is, and pointed at another machine in clear text by baseURLOverrides: the token does not go")
    func overriddenToAnotherMachine() async throws {
        let sent = NIOLockedValueBox<[String?]>([])
        let authorization: String? = try await withScriptedManager(clock: ManualClock(), configure: {
            $0.interceptors = [AuthenticationInterceptor(provider: Tokens())]
            $0.baseURLOverrides = ["http://localhost:50051": "http://greeter.example.com:50051"]
        }, respond: { request in
            sent.withLockedValue { $0.append(request.headerFields[.authorization]) }
            return (.status(.ok), Data())
        }) { manager in
            let definition = APIDefinition(name: "SayHello", wire: .http(.post, path: "/hello"), authenticated: true, defaults: APIDefaults(baseURL: "http://localhost:50051"))
            _ = try? await BaseAPI(definition: definition, response: .noContent).using(manager).start()
            return sent.withLockedValue { $0.first ?? nil }
        }
        #expect(authorization == nil, "the token went in clear text to greeter.example.com")
        #expect(sent.withLockedValue { $0.isEmpty }, "the call went out")
    }
}
