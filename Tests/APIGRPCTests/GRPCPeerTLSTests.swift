import APIRuntime
import APITestSupport
import Crypto
import ExampleClient
import Foundation
import SwiftASN1
import Testing
import X509

/// gRPC over TLS against a server that is not grpc-swift: grpcio (gRPC's C core) with a
/// certificate chain made by trustme, as many teams make theirs (Tests/Peers/grpcio_greeter.py).
/// trustme marks a leaf's extended key usages critical, which a verifier must understand.
@Suite("TLS settings over gRPC, against grpcio with trustme's certificates", .serialized)
struct GRPCPeerTLSTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("The authority as trust root connects; a pin of the leaf's key, the authority's key or certificate, or the leaf's with a backup connects; a wrong pin is pinMismatch")
    func pins() async throws {
        let peer = try GRPCIOPeer.start()
        defer { peer.stop() }
        let roots = TLSSettings.TrustRoots.certificates([peer.authority])
        let backup = try Self.publicKeyPin(of: P256.Signing.PrivateKey().publicKey)
        #expect(try await peer.sayHello(TLSSettings(trustRoots: roots)).get() == "Hello Ada")
        for pins: [CertificatePin] in [
            [.publicKey(sha256: try Self.publicKeyPin(ofPEM: peer.leaf))],
            [.publicKey(sha256: try Self.publicKeyPin(ofPEM: peer.authority))],
            [.certificate(sha256: try Self.certificatePin(ofPEM: peer.authority))],
            [.publicKey(sha256: backup), .publicKey(sha256: try Self.publicKeyPin(ofPEM: peer.leaf))],
        ] {
            #expect(try await peer.sayHello(TLSSettings(trustRoots: roots, pins: pins)).get() == "Hello Ada", "pins: \(pins)")
        }
        #expect(tlsFailureKind(try await peer.sayHello(TLSSettings(trustRoots: roots, pins: [.publicKey(sha256: backup)]))) == .pinMismatch)
        #expect(tlsFailureKind(try await peer.sayHello(TLSSettings(pins: [.publicKey(sha256: try Self.publicKeyPin(ofPEM: peer.leaf))]))) == .untrustedCertificate)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Mutual TLS: without a client certificate the call is clientCertificateRefused, pinned or not; with the authority's client certificate it connects")
    func mutualTLS() async throws {
        let peer = try GRPCIOPeer.start(mutualTLS: true)
        defer { peer.stop() }
        let roots = TLSSettings.TrustRoots.certificates([peer.authority])
        let pin = CertificatePin.publicKey(sha256: try Self.publicKeyPin(ofPEM: peer.leaf))
        #expect(tlsFailureKind(try await peer.sayHello(TLSSettings(trustRoots: roots))) == .clientCertificateRefused)
        #expect(tlsFailureKind(try await peer.sayHello(TLSSettings(trustRoots: roots, pins: [pin]))) == .clientCertificateRefused)
        let identity = try #require(peer.clientIdentity)
        #expect(try await peer.sayHello(TLSSettings(trustRoots: roots, clientIdentity: identity)).get() == "Hello Ada")
        #expect(try await peer.sayHello(TLSSettings(trustRoots: roots, pins: [pin], clientIdentity: identity)).get() == "Hello Ada")
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("shutdown returns within its grace period and the session close limit, though grpcio never answers the TLS close")
    func shutdownWithinItsBound() async throws {
        let peer = try GRPCIOPeer.start()
        defer { peer.stop() }
        var configuration = APIManager.Configuration()
        configuration.tls["localhost"] = TLSSettings(trustRoots: .certificates([peer.authority]))
        let manager = APIManager(configuration: configuration)
        let api = SayHelloAPI { $0.name = "Ada" }.using(manager)
        api.options.baseURL = "grpcs://localhost:\(peer.port)"
        #expect(try await api.start().message == "Hello Ada")
        let started = ContinuousClock.now
        await manager.shutdown(gracePeriod: .zero)
        let took = ContinuousClock.now - started
        // Without the limit it takes the 5 s SwiftNIO's TLS waits for the server's close_notify.
        #expect(took < APIManager.sessionCloseLimit + .seconds(2), "shutdown took \(took)")
    }

    static func publicKeyPin(ofPEM pem: Data) throws -> String {
        try publicKeyPin(of: Certificate(pemEncoded: String(decoding: pem, as: UTF8.self)).publicKey)
    }

    static func publicKeyPin(of key: some DERSerializable) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(key)
        return Data(SHA256.hash(data: serializer.serializedBytes)).base64EncodedString()
    }

    static func publicKeyPin(of key: P256.Signing.PublicKey) throws -> String {
        try publicKeyPin(of: Certificate.PublicKey(key))
    }

    static func certificatePin(ofPEM pem: Data) throws -> String {
        try publicKeyPin(of: Certificate(pemEncoded: String(decoding: pem, as: UTF8.self)))
    }
}

/// `Tests/Peers/grpcio_greeter.py`, running for one test.
struct GRPCIOPeer {
    let process: Process
    let input: Pipe
    let port: Int
    /// trustme's authority and the server's certificate, PEM.
    let authority: Data
    let leaf: Data
    /// A client certificate the server accepts, when it asks for one.
    let clientIdentity: ClientIdentity?

    struct Ready: Decodable {
        var port: Int
        var authority: String
        var leaf: String
        var clientCertificate: String?
        var clientKey: String?
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../Peers/grpcio_greeter.py").standardizedFileURL

    static func start(mutualTLS: Bool = false) throws -> GRPCIOPeer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + (mutualTLS ? ["--mtls"] : [])
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw PeerFailure(description: "\(script.lastPathComponent) did not start (python3 -m pip install -r Tests/Peers/requirements.txt): \(message)")
            }
            line += chunk
        }
        let ready = try JSONDecoder().decode(Ready.self, from: line)
        let identity = ready.clientCertificate.flatMap { certificate in
            ready.clientKey.map { ClientIdentity.pem(certificateChain: Data(certificate.utf8), privateKey: Data($0.utf8)) }
        }
        return GRPCIOPeer(
            process: process, input: input, port: ready.port,
            authority: Data(ready.authority.utf8), leaf: Data(ready.leaf.utf8), clientIdentity: identity
        )
    }

    /// Calls SayHello over `grpcs://localhost:<port>` with `settings` for localhost.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func sayHello(_ settings: TLSSettings) async throws -> Result<String, APIError> {
        try await sayHelloOverTLS(port: port, settings: settings)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    struct PeerFailure: Error, CustomStringConvertible {
        let description: String
    }
}
