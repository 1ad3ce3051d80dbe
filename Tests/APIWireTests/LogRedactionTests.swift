import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import InMemoryLogging
import Logging
import Testing
import WireTestSupport

/// Puts secrets where a careless call would: query items, headers, a JSON body nested deep.
struct SecretPlanter: APIInterceptor {
    var name: String { "planter" }

    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        var request = request
        var components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "token", value: "QUERY-SECRET-1"), URLQueryItem(name: "api_key", value: "QUERY-SECRET-2"),
            URLQueryItem(name: "signature", value: "QUERY-SECRET-3"), URLQueryItem(name: "page", value: "visible-query"),
        ]
        request.url = components.url!
        request.headerFields[HTTPField.Name("X-API-Key")!] = "HEADER-SECRET-1"
        request.headerFields[HTTPField.Name("X-Auth-Token")!] = "HEADER-SECRET-2"
        request.headerFields[.authorization] = "Bearer HEADER-SECRET-3"
        request.headerFields[.cookie] = "session=HEADER-SECRET-4"
        if request.method == .post, context.kind != .grpc {
            request.body = Data(#"{"access_token": "BODY-SECRET-1", "nested": {"password": "BODY-SECRET-2", "refreshToken": "BODY-SECRET-3"}, "list": [{"client_secret": "BODY-SECRET-4"}], "note": "visible-body"}"#.utf8)
        }
        return request
    }
}

@Suite("Logs hold no secrets by default")
struct LogRedactionTests {
    static let secrets = (1...4).flatMap { ["QUERY-SECRET-\($0)", "HEADER-SECRET-\($0)", "BODY-SECRET-\($0)", "REPLY-SECRET-\($0)"] }
        .filter { $0 != "QUERY-SECRET-4" }

    /// Every line and every metadata value the logger was given, as text.
    static func everything(_ handler: InMemoryLogHandler) -> String {
        handler.entries.map { "\($0.level) \($0.message) \($0.metadata)" }.joined(separator: "\n")
    }

    @Test("Secrets in query items, headers, JSON bodies, replies and error replies: none reaches the log at trace level")
    func rest() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "redaction") { _ in handler }
        logger.logLevel = .trace
        var errors: [String] = []
        try await withServer(configure: {
            $0.interceptors = [SecretPlanter(), LoggingInterceptor(logger: logger, logsBodies: true)]
        }, { request in
            if request.path.hasSuffix("/404") {
                return .json(#"{"error": "no such user", "api_key": "REPLY-SECRET-4"}"#, status: .notFound)
            }
            var response = Response.json(#"{"refresh_token": "REPLY-SECRET-1", "id_token": "REPLY-SECRET-2", "id": 1, "name": "a", "role": "guest", "tags": [], "created_at": "2024-01-01T00:00:00Z"}"#)
            // Expired at once, so URLSession's shared cookie jar keeps nothing of it for other tests.
            response.headers[.setCookie] = "session=REPLY-SECRET-3; Max-Age=0"
            return response
        }) { _, manager in
            _ = try? await CreateUserAPI(name: "visible-name", role: .guest, idempotencyKey: UUID()).using(manager).start()
            do {
                _ = try await GetUserAPI(id: 404).using(manager).start()
            } catch {
                errors.append("\(error)")
            }
        }
        let text = Self.everything(handler)
        for secret in Self.secrets {
            #expect(!text.contains(secret), "\(secret) is in the log:\n\(text)")
        }
        #expect(text.contains("visible-query") && text.contains("visible-body"), "what is not secret is still logged")
        #expect(text.contains("<redacted>"))
        #expect(errors.count == 1)
        #expect(errors.allSatisfy { !$0.contains("REPLY-SECRET") }, "\(errors)")
    }

    @Test("gRPC metadata with secret names is redacted too")
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func grpcMetadata() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "redaction") { _ in handler }
        logger.logLevel = .trace
        try await withGRPCServer(configure: {
            $0.interceptors = [SecretPlanter(), LoggingInterceptor(logger: logger, logsBodies: true)]
        }) { _, manager in
            _ = try? await SayHelloAPI { $0.name = "visible-name" }.using(manager).start()
        }
        let text = Self.everything(handler)
        #expect(text.contains("SayHello"))
        for secret in Self.secrets where secret.hasPrefix("HEADER") {
            #expect(!text.contains(secret), "\(secret) is in the log:\n\(text)")
        }
    }

    @Test("Secret names: words split at separators and case changes", arguments: [
        ("X-API-Key", true), ("access_token", true), ("refreshToken", true), ("client.secret", true), ("Authorization", true),
        ("password", true), ("sig", true), ("session_id", true), ("page", false), ("monkey", false), ("author", false), ("tokenizer", false),
        ("accesstoken", true), ("apitoken", true), ("xsrftoken", true), ("sessionid", true), ("clientsecret", true), ("sidebar", false),
    ])
    func names(name: String, secret: Bool) {
        #expect(SecretNames.standard.contains(name) == secret)
    }

    /// Servers that fail a call before any reply: by refusing the connection, by closing it at
    /// once, and by presenting a certificate nobody trusts.
    enum Failure: String, CaseIterable, Sendable {
        case refused, reset, untrustedCertificate

        /// A base URL with a password, reaching a server that fails this way.
        func baseURL() async throws -> String {
            switch self {
            case .refused:
                // Port 1 on loopback refuses at once.
                return "http://user:PASSWORD-SECRET@127.0.0.1:1/v1"
            case .reset:
                let server = try await RawServer.start(reply: "")
                return server.baseURL.replacingOccurrences(of: "http://", with: "http://user:PASSWORD-SECRET@") + "/v1"
            case .untrustedCertificate:
                let server = try await LoopbackServer.start(tls: try serverTLS(TestCertificateAuthority.selfSignedServer())) { _ in .json("7") }
                return server.baseURL.replacingOccurrences(of: "https://", with: "https://user:PASSWORD-SECRET@") + "/v1"
            }
        }
    }

    @Test("A connection refused, reset or untrusted, to a base URL with a password and a secret query: neither is in the error or the log", arguments: Failure.allCases)
    func transportFailure(failure: Failure) async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "redaction") { _ in handler }
        logger.logLevel = .trace
        var configuration = APIManager.Configuration()
        configuration.httpTransport = testHTTPTransport
        configuration.interceptors = [SecretPlanter(), LoggingInterceptor(logger: logger, logsBodies: true)]
        let baseURL = try await failure.baseURL()
        try await withManager(configuration) { manager in
            let api = CountUsersAPI().using(manager)
            api.options.baseURL = baseURL
            // Generous: under a full parallel run FoundationNetworking once took over 10 s to
            // report even a refused connection.
            api.options.timeout = .seconds(60)
            let error = await expectAPIError { try await api.start() }
            switch (failure, error?.reason) {
            case (.refused, .transport?), (.reset, .transport?), (.reset, .invalidResponse?), (.untrustedCertificate, .tls?):
                break
            default:
                Issue.record("expected the \(failure) connection to fail as such, got \(String(describing: error))")
            }
            let described = [error.map { "\($0)" } ?? "", error?.detailedDescription ?? "", error?.reason.description ?? ""].joined(separator: "\n")
            for secret in ["PASSWORD-SECRET", "QUERY-SECRET-1", "QUERY-SECRET-2", "QUERY-SECRET-3"] {
                #expect(!described.contains(secret), "\(secret) is in the error: \(described)")
            }
        }
        let text = Self.everything(handler)
        #expect(text.contains("CountUsers"))
        for secret in ["PASSWORD-SECRET", "QUERY-SECRET-1", "QUERY-SECRET-2", "QUERY-SECRET-3", "HEADER-SECRET-1"] {
            #expect(!text.contains(secret), "\(secret) is in the log:\n\(text)")
        }
    }

    @Test("A secret path parameter's value is redacted in the log, the rest of the path kept", arguments: [
        ("/v1/reset/{token}", "/reset/%3Credacted%3E"), ("/v1/users/{id}/sessions/{sessionId}.json", "/users/7/sessions/%3Credacted%3E.json"),
        ("/v1/{api_key}/items", "/%3Credacted%3E/items"),
    ])
    func secretPathParameter(template: String, logged: String) async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "redaction") { _ in handler }
        logger.logLevel = .trace
        try await withServer(configure: { $0.interceptors = [LoggingInterceptor(logger: logger)] }, { _ in Response(status: .noContent) }) { server, manager in
            let definition = APIDefinition(name: "Secretive", method: .post, path: template, defaults: APIDefaults(baseURL: server.baseURL))
            let request = RequestBuilder().path("token", "PATH-SECRET").path("id", 7).path("sessionId", "PATH-SECRET").path("api_key", "PATH-SECRET")
            try await BaseAPI(definition: definition, response: .noContent, request: request).using(manager).start()
            #expect(server.requests.first?.path.contains("PATH-SECRET") == true, "the server gets the value")
        }
        let text = Self.everything(handler)
        #expect(!text.contains("PATH-SECRET"), "the secret is in the log:\n\(text)")
        #expect(text.contains(logged), "\(text)")
    }
}
