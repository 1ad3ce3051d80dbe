import APINIOSSL
import APIRuntime
import GRPCCore
#if canImport(Network)
import GRPCNIOTransportHTTP2TransportServices
#else
import GRPCNIOTransportHTTP2Posix
#endif
import NIOSSL

#if canImport(Network)
@available(gRPCSwift 2.0, *)
extension HTTP2ClientTransport.TransportServices.TransportSecurity {
    /// TLS for a `grpcs://` session as its host's settings say, over Network.framework: trust
    /// roots, and a client identity from a PKCS #12 bundle. Network.framework's transport has no
    /// verification hook through grpc-swift, so pins fail as unsupported.
    static func session(_ key: SessionKey, settings: TLSSettings) throws(TLSFailure) -> Self {
        guard key.scheme == "grpcs" else { return .plaintext }
        guard settings.pins.isEmpty else {
            throw TLSFailure(kind: .unsupported, host: key.host, message: "gRPC over Network.framework cannot check certificate pins")
        }
        let roots = try settings.trustRootCertificates(host: key.host).map { try GRPCCertificates.sources($0, host: key.host) }
        let identity = settings.clientIdentity
        // Imported once here so that a bundle that does not open fails the call with a typed error.
        _ = try identity?.secIdentity(host: key.host)
        let host = key.host
        return .tls { config in
            if let roots { config.trustRoots = .certificates(roots) }
            if let identity { config.identityProvider = { try identity.secIdentity(host: host) } }
        }
    }
}
#else
@available(gRPCSwift 2.0, *)
extension HTTP2ClientTransport.Posix.TransportSecurity {
    /// TLS for a `grpcs://` session as its host's settings say: trust roots, client identity,
    /// and, when the host pins, `verifier` checking the chain in BoringSSL's place.
    static func session(_ key: SessionKey, settings: TLSSettings, verifier: ChainVerifier?) throws(TLSFailure) -> Self {
        guard key.scheme == "grpcs" else { return .plaintext }
        var tls = TLS.defaults
        if let roots = try settings.trustRootCertificates(host: key.host) {
            tls.trustRoots = .certificates(try GRPCCertificates.sources(roots, host: key.host))
        }
        if let (chain, privateKey) = try settings.clientIdentity?.nioSSL(host: key.host) {
            tls.certificateChain = try GRPCCertificates.sources(chain, host: key.host)
            tls.privateKey = .bytes(try GRPCCertificates.der(of: privateKey, host: key.host), format: .der)
        }
        if let verifier {
            tls.customVerificationCallback = { certificates, promise in verifier.verify(certificates, promise: promise) }
        }
        return .tls(tls)
    }
}
#endif

/// Certificates as grpc-swift's TLS configuration takes them.
enum GRPCCertificates {
    static func sources(_ certificates: [NIOSSLCertificate], host: String) throws(TLSFailure) -> [TLSConfig.CertificateSource] {
        do {
            return try certificates.map { .bytes(try $0.toDERBytes(), format: .der) }
        } catch {
            throw TLSFailure(kind: .invalidSettings, host: host, message: "a certificate does not encode as DER: \(error)")
        }
    }

    static func der(of key: NIOSSLPrivateKey, host: String) throws(TLSFailure) -> [UInt8] {
        do {
            return try key.derBytes
        } catch {
            throw TLSFailure(kind: .invalidSettings, host: host, message: "the client's private key does not encode as DER: \(error)")
        }
    }
}
