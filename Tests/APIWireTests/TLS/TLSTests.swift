import APIAsyncHTTPClient
import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import Hummingbird
import NIOSSL
import Testing
import WireTestSupport

/// A TLS server configuration for `identity`; with `clientsSignedBy`, it demands a client
/// certificate that authority signed (mutual TLS).
func serverTLS(_ identity: TestIdentity, clientsSignedBy authority: TestCertificateAuthority? = nil) throws -> NIOSSL.TLSConfiguration {
    var configuration = NIOSSL.TLSConfiguration.makeServerConfiguration(
        certificateChain: [.certificate(try identity.nioCertificate)], privateKey: .privateKey(try identity.nioKey)
    )
    if let authority {
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates([try authority.identity.nioCertificate])
    }
    return configuration
}

/// The kind of TLS failure a call ended with; nil (and a recorded issue) for anything else.
func tlsFailureKind<T>(_ call: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation) async -> TLSFailure.Kind? {
    let error = await expectAPIError(call, sourceLocation: sourceLocation)
    guard case .tls(let failure) = error?.reason else {
        Issue.record("expected a TLS failure, got \(String(describing: error))", sourceLocation: sourceLocation)
        return nil
    }
    #expect(failure.host == "localhost", sourceLocation: sourceLocation)
    return failure.kind
}

/// HTTPS on real TLS servers on loopback (Hummingbird over NIOSSL), with certificates each test
/// makes, through AsyncHTTPClient, whose TLS the settings configure; and what Linux's URLSession
/// does with them.
@Suite("TLS settings over HTTPS")
struct HTTPSTests {
    /// Runs `body` with a TLS server of `identity` answering `7`, and an AsyncHTTPClient manager
    /// pointed at it with `settings` for localhost.
    func withTLSServer(
        _ tls: NIOSSL.TLSConfiguration, settings: TLSSettings?, transport: TransportFactory = .asyncHTTPClient,
        body: (APIManager) async throws -> Void
    ) async throws {
        let server = try await LoopbackServer.start(tls: tls) { _ in .json("7") }
        var configuration = APIManager.Configuration()
        configuration.httpTransport = transport
        configuration.baseURLOverrides = ["https://api.example.com/v1": server.baseURL + "/v1"]
        configuration.tls["localhost"] = settings
        try await withManager(configuration, body: body)
    }

    @Test("A self-signed server fails by default, with each transport", arguments: ["asynchttpclient", "urlsession"])
    func selfSignedByDefault(transport: String) async throws {
        let server = try TestCertificateAuthority.selfSignedServer()
        try await withTLSServer(try serverTLS(server), settings: nil, transport: transport == "urlsession" ? .urlSession : .asyncHTTPClient) { manager in
            #expect(await tlsFailureKind { try await CountUsersAPI().using(manager).start() } == .untrustedCertificate)
        }
    }

    @Test("A host's settings apply whatever the case of its key, and with a final dot")
    func hostKeys() async throws {
        let authority = try TestCertificateAuthority()
        let server = try authority.server()
        let loopback = try await LoopbackServer.start(tls: try serverTLS(server)) { _ in .json("7") }
        var configuration = APIManager.Configuration()
        configuration.httpTransport = .asyncHTTPClient
        configuration.baseURLOverrides = ["https://api.example.com/v1": loopback.baseURL + "/v1"]
        configuration.tls["LocalHost."] = TLSSettings(trustRoots: .certificates([try authority.identity.certificatePEM]))
        try await withManager(configuration) { manager in
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 7)
        }
    }

    @Test("An internationalized host's settings apply whether key and URL write it in Unicode or in Punycode", arguments: [
        ("BÜCHER.example.", "https://xn--bcher-kva.example/v1"), ("xn--bcher-kva.example", "https://Bücher.example/v1"),
    ])
    func internationalizedHostKeys(key: String, baseURL: String) async throws {
        // Pins, which neither HTTP transport here can check: the session is refused before any
        // name is resolved, which shows the settings were found for the host.
        var configuration = APIManager.Configuration()
        configuration.httpTransport = testHTTPTransport
        configuration.baseURLOverrides = ["https://api.example.com/v1": baseURL]
        configuration.tls[key] = TLSSettings(pins: [.publicKey(sha256: Data(repeating: 7, count: 32).base64EncodedString())])
        try await withManager(configuration) { manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            guard case .tls(let failure) = error?.reason else {
                Issue.record("expected a TLS failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .unsupported)
            #expect(failure.host == "xn--bcher-kva.example")
        }
    }

    @Test("A host with TLS settings is never reached without TLS: an http base URL for it is an invalid request")
    func noPlaintextWithSettings() async throws {
        let authority = try TestCertificateAuthority()
        try await withServer(configure: { $0.tls["127.0.0.1"] = TLSSettings(trustRoots: .certificates([try! authority.identity.certificatePEM])) }, { _ in .json("7") }) { server, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .invalidRequest(message: "127.0.0.1 has TLS settings, and a http URL would reach it without TLS"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("A redirect to a host whose TLS settings differ is refused, never followed with the first host's")
    func redirectAcrossSettings() async throws {
        let authority = try TestCertificateAuthority()
        let server = try authority.server()
        let loopback = try await LoopbackServer.start(tls: try serverTLS(server)) { _ in
            Response(status: .found, headers: [.location: "https://127.0.0.1:1/v1/users/count"])
        }
        var configuration = APIManager.Configuration()
        configuration.httpTransport = .asyncHTTPClient
        configuration.baseURLOverrides = ["https://api.example.com/v1": loopback.baseURL + "/v1"]
        configuration.tls["localhost"] = TLSSettings(trustRoots: .certificates([try authority.identity.certificatePEM]))
        try await withManager(configuration) { manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .invalidResponse(message: "a redirect to 127.0.0.1, whose TLS settings differ from those of the host it came from, is refused"))
        }
    }

    @Test("A server signed by a trusted root of the host's own connects; an unknown root fails")
    func trustRoots() async throws {
        let authority = try TestCertificateAuthority()
        let server = try authority.server()
        try await withTLSServer(try serverTLS(server), settings: TLSSettings(trustRoots: .certificates([try authority.identity.certificatePEM]))) { manager in
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 7)
        }
        let stranger = try TestCertificateAuthority(name: "another CA")
        try await withTLSServer(try serverTLS(server), settings: TLSSettings(trustRoots: .certificates([try stranger.identity.certificatePEM]))) { manager in
            #expect(await tlsFailureKind { try await CountUsersAPI().using(manager).start() } == .untrustedCertificate)
        }
    }

    @Test("Mutual TLS: no client certificate is refused; PEM and PKCS #12 identities connect")
    func mutualTLS() async throws {
        let authority = try TestCertificateAuthority()
        let tls = try serverTLS(try authority.server(), clientsSignedBy: authority)
        let roots = TLSSettings.TrustRoots.certificates([try authority.identity.certificatePEM])
        try await withTLSServer(tls, settings: TLSSettings(trustRoots: roots)) { manager in
            #expect(await tlsFailureKind { try await CountUsersAPI().using(manager).start() } == .clientCertificateRefused)
        }
        let client = try authority.client()
        try await withTLSServer(tls, settings: TLSSettings(trustRoots: roots, clientIdentity: .pem(certificateChain: try client.certificatePEM, privateKey: client.keyPEM))) { manager in
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 7)
        }
        let bundle = NIOSSLPKCS12Bundle(certificateChain: [try client.nioCertificate], privateKey: try client.nioKey)
        let pkcs12 = Data(try bundle.serialize(passphrase: Array("secret".utf8)))
        try await withTLSServer(tls, settings: TLSSettings(trustRoots: roots, clientIdentity: .pkcs12(pkcs12, password: "secret"))) { manager in
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 7)
        }
        try await withTLSServer(tls, settings: TLSSettings(trustRoots: roots, clientIdentity: .pkcs12(pkcs12, password: "wrong"))) { manager in
            #expect(await tlsFailureKind { try await CountUsersAPI().using(manager).start() } == .invalidSettings)
        }
    }

    @Test("What a transport cannot honour fails as unsupported, never connecting without it")
    func unsupported() async throws {
        let authority = try TestCertificateAuthority()
        let server = try authority.server()
        let pinned = TLSSettings(trustRoots: .certificates([try authority.identity.certificatePEM]), pins: [.publicKey(sha256: try server.publicKeyPin)])
        try await withTLSServer(try serverTLS(server), settings: pinned) { manager in
            #expect(await tlsFailureKind { try await CountUsersAPI().using(manager).start() } == .unsupported)
        }
        #if !canImport(Darwin)
        let roots = TLSSettings(trustRoots: .certificates([try authority.identity.certificatePEM]))
        try await withTLSServer(try serverTLS(server), settings: roots, transport: .urlSession) { manager in
            #expect(await tlsFailureKind { try await CountUsersAPI().using(manager).start() } == .unsupported)
        }
        #endif
    }

    @Test("A redirect from an https server to an http one is refused unless allowed", arguments: [false, true])
    func httpsToHTTP(allowed: Bool) async throws {
        let authority = try TestCertificateAuthority()
        let plain = try await LoopbackServer.start { _ in .json("5") }
        let secure = try await LoopbackServer.start(tls: try serverTLS(try authority.server())) { _ in
            Response(status: .found, headers: [.location: plain.baseURL + "/elsewhere"])
        }
        var configuration = APIManager.Configuration()
        configuration.httpTransport = .asyncHTTPClient
        configuration.baseURLOverrides = ["https://api.example.com/v1": secure.baseURL + "/v1"]
        configuration.tls["localhost"] = TLSSettings(trustRoots: .certificates([try authority.identity.certificatePEM]))
        configuration.redirects = RedirectPolicy(allowsHTTPSToHTTP: allowed)
        try await withManager(configuration) { manager in
            let api = CountUsersAPI().using(manager)
            api.options.headers = [(name: "Authorization", value: "Bearer T")]
            if allowed {
                let count = try await api.start()
                #expect(count == 5)
                #expect(plain.requests.first?.headers[.authorization] == nil)
            } else {
                let error = await expectAPIError { try await api.start() }
                #expect(error?.reason == .invalidResponse(message: "a redirect from https to http (\(plain.baseURL)/elsewhere) is refused"))
                #expect(plain.requests.isEmpty)
            }
            #expect(secure.requests.count == 1)
        }
    }
}
