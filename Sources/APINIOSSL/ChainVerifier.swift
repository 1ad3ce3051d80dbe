import APIRuntime
import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import SwiftASN1
import X509

/// Verifies a server's certificate chain for one host with swift-certificates (RFC 5280 path
/// validation to the host's trust roots, the host's name, and the certificates' extended key
/// usages), then checks the host's pins
/// against the verified chain. It is a NIOSSL custom verification callback, which replaces
/// BoringSSL's own verification, so it must do all of it.
///
/// The callback can only pass or fail the handshake; why it failed is kept here for the
/// transport to report (`failure`).
package final class ChainVerifier: Sendable {
    private let host: String
    private let roots: CertificateStore
    private let pins: [(kind: CertificatePin.Kind, digest: Data)]
    /// Guards the reason of the latest failed verification.
    private let lastFailure = NIOLockedValueBox<TLSFailure?>(nil)

    /// A verifier of `settings`' trust roots and pins for `host`.
    package init(settings: TLSSettings, host: String) throws(TLSFailure) {
        self.host = host
        self.pins = try CertificatePin.digests(of: settings.pins, host: host)
        if let certificates = try settings.trustRootCertificates(host: host) {
            do {
                self.roots = CertificateStore(try certificates.map { try Certificate(derEncoded: try $0.toDERBytes()) })
            } catch {
                throw TLSFailure(kind: .invalidSettings, host: host, message: "a trust root does not parse as X.509: \(error)")
            }
        } else {
            self.roots = CertificateStore.systemTrustRoots
        }
    }

    /// Why the latest verification failed, if it did.
    package var failure: TLSFailure? { lastFailure.withLockedValue { $0 } }

    /// The NIOSSL callback: completes `promise` with the verified chain, or with `.failed`.
    package func verify(_ presented: [NIOSSLCertificate], promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>) {
        promise.completeWithTask {
            switch await self.verifiedChain(presented) {
            case .success(let chain):
                return .certificateVerified(VerificationMetadata(ValidatedCertificateChain(chain)))
            case .failure(let failure):
                self.lastFailure.withLockedValue { $0 = failure }
                return .failed
            }
        }
    }

    private func verifiedChain(_ presented: [NIOSSLCertificate]) async -> Result<[NIOSSLCertificate], TLSFailure> {
        let parsed: [Certificate]
        do {
            parsed = try presented.map { try Certificate(derEncoded: try $0.toDERBytes()) }
        } catch {
            return .failure(TLSFailure(kind: .untrustedCertificate, host: host, message: "the server's certificate does not parse: \(error)"))
        }
        guard let leaf = parsed.first else {
            return .failure(TLSFailure(kind: .untrustedCertificate, host: host, message: "the server presented no certificate"))
        }
        // A host written as an address is matched against the certificate's IP addresses.
        let address = HostAddress(host)
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy()
            ServerIdentityPolicy(serverHostname: address == nil ? host : nil, serverIP: address?.text)
            ServerAuthenticationPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(parsed.dropFirst()))
        guard case .validCertificate(let chain) = result else {
            return .failure(TLSFailure(kind: .untrustedCertificate, host: host, message: "no trusted chain: \(result)"))
        }
        if !pins.isEmpty, !chain.contains(where: matchesPin) {
            return .failure(TLSFailure(kind: .pinMismatch, host: host, message: "pinned: \(pins.map { $0.digest.base64EncodedString() }.joined(separator: ", "))"))
        }
        do {
            return .success(try chain.map { try NIOSSLCertificate(bytes: try $0.derBytes, format: .der) })
        } catch {
            return .failure(TLSFailure(kind: .untrustedCertificate, host: host, message: "\(error)"))
        }
    }

    private func matchesPin(_ certificate: Certificate) -> Bool {
        guard let certificateDigest = try? Data(SHA256.hash(data: certificate.derBytes)),
              let keyDigest = try? Data(SHA256.hash(data: certificate.publicKey.derBytes))
        else { return false }
        return pins.contains { pin in
            pin.digest == (pin.kind == .publicKey ? keyDigest : certificateDigest)
        }
    }
}

extension DERSerializable {
    /// The DER encoding of this value: a whole certificate, or a SubjectPublicKeyInfo.
    var derBytes: [UInt8] {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(self)
            return serializer.serializedBytes
        }
    }
}
