import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import GRPCNIOTransportHTTP2Posix
import NIOSSL
import Testing
import WireTestSupport

/// gRPC over TLS (`grpcs://`) against a real grpc-swift server on loopback, with certificates
/// each test makes: trust roots, pins checked by swift-certificates, and mutual TLS.
@Suite("TLS settings over gRPC")
struct GRPCTLSTests {
    /// grpc-swift's server TLS for `identity`; with `clientsSignedBy`, mutual TLS.
    @available(gRPCSwift 2.0, *)
    static func security(_ identity: TestIdentity, clientsSignedBy authority: TestCertificateAuthority? = nil) throws -> HTTP2ServerTransport.Posix.TransportSecurity {
        let chain: [TLSConfig.CertificateSource] = [.bytes([UInt8](try identity.certificatePEM), format: .pem)]
        let key = TLSConfig.PrivateKeySource.bytes([UInt8](identity.keyPEM), format: .pem)
        guard let authority else { return .tls(certificateChain: chain, privateKey: key) }
        return .mTLS(certificateChain: chain, privateKey: key) { config in
            config.trustRoots = .certificates([.bytes([UInt8](try! authority.identity.certificatePEM), format: .pem)])
            config.clientCertificateVerification = .noHostnameVerification
        }
    }

    /// Calls SayHello on a TLS server of `identity` with `settings` for `host` (localhost, or
    /// 127.0.0.1, which the test server certificates also name).
    @available(gRPCSwift 2.0, *)
    func sayHello(
        to security: HTTP2ServerTransport.Posix.TransportSecurity, settings: TLSSettings?, host: String = "localhost"
    ) async throws -> Result<String, APIError> {
        let server = try await GRPCTestServer.start(security: security)
        return try await sayHelloOverTLS(port: server.port, host: host, settings: settings)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A self-signed server fails by default; one signed by the host's own root connects; an unknown root fails")
    func trustRoots() async throws {
        #expect(tlsFailureKind(try await sayHello(to: try Self.security(try TestCertificateAuthority.selfSignedServer()), settings: nil)) == .untrustedCertificate)
        let authority = try TestCertificateAuthority()
        let server = try Self.security(try authority.server())
        let trusted = TLSSettings(trustRoots: .certificates([try authority.identity.certificatePEM]))
        #expect(try await sayHello(to: server, settings: trusted).get() == "Hello Ada")
        let stranger = TLSSettings(trustRoots: .certificates([try TestCertificateAuthority(name: "another CA").identity.certificatePEM]))
        #expect(tlsFailureKind(try await sayHello(to: server, settings: stranger)) == .untrustedCertificate)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Pins: the server's key or its authority's certificate connects; a pin of another key fails; trust still comes first")
    func pins() async throws {
        let authority = try TestCertificateAuthority()
        let leaf = try authority.server()
        let server = try Self.security(leaf)
        let roots = TLSSettings.TrustRoots.certificates([try authority.identity.certificatePEM])
        let other = try authority.server()
        let keyPin = TLSSettings(trustRoots: roots, pins: [.publicKey(sha256: try other.publicKeyPin), .publicKey(sha256: try leaf.publicKeyPin)])
        #expect(try await sayHello(to: server, settings: keyPin).get() == "Hello Ada")
        let authorityPin = TLSSettings(trustRoots: roots, pins: [.certificate(sha256: try authority.identity.certificatePin)])
        #expect(try await sayHello(to: server, settings: authorityPin).get() == "Hello Ada")
        // A server reached by its address is checked against the address its certificate names.
        #expect(try await sayHello(to: server, settings: keyPin, host: "127.0.0.1").get() == "Hello Ada")
        let mismatch = TLSSettings(trustRoots: roots, pins: [.publicKey(sha256: try other.publicKeyPin)])
        #expect(tlsFailureKind(try await sayHello(to: server, settings: mismatch)) == .pinMismatch)
        // A pin of the presented key does not make an untrusted chain trusted.
        let untrusted = TLSSettings(pins: [.publicKey(sha256: try leaf.publicKeyPin)])
        #expect(tlsFailureKind(try await sayHello(to: server, settings: untrusted)) == .untrustedCertificate)
        let malformed = TLSSettings(trustRoots: roots, pins: [.publicKey(sha256: "not a digest")])
        #expect(tlsFailureKind(try await sayHello(to: server, settings: malformed)) == .invalidSettings)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Mutual TLS: no client certificate is refused; the client's certificate connects")
    func mutualTLS() async throws {
        let authority = try TestCertificateAuthority()
        let server = try Self.security(try authority.server(), clientsSignedBy: authority)
        let roots = TLSSettings.TrustRoots.certificates([try authority.identity.certificatePEM])
        #expect(tlsFailureKind(try await sayHello(to: server, settings: TLSSettings(trustRoots: roots))) == .clientCertificateRefused)
        let client = try authority.client()
        let identity = ClientIdentity.pem(certificateChain: try client.certificatePEM, privateKey: client.keyPEM)
        #expect(try await sayHello(to: server, settings: TLSSettings(trustRoots: roots, clientIdentity: identity)).get() == "Hello Ada")
    }
}
