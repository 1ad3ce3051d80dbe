import APIRuntime
import Foundation
import NIOSSL

extension TLSSettings {
    /// A NIOSSL client configuration with these trust roots and client identity. Pins are not
    /// in it: NIOSSL checks them only through a verification callback (`ChainVerifier`).
    package func nioSSLConfiguration(host: String) throws(TLSFailure) -> NIOSSL.TLSConfiguration {
        var configuration = NIOSSL.TLSConfiguration.makeClientConfiguration()
        if let roots = try trustRootCertificates(host: host) {
            configuration.trustRoots = .certificates(roots)
        }
        if let (chain, key) = try clientIdentity?.nioSSL(host: host) {
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(key)
        }
        return configuration
    }

    /// The certificates of `.certificates` trust roots, parsed; nil for the system's.
    package func trustRootCertificates(host: String) throws(TLSFailure) -> [NIOSSLCertificate]? {
        guard case .certificates(let documents) = trustRoots else { return nil }
        var certificates: [NIOSSLCertificate] = []
        for document in documents {
            certificates += try Self.certificates(in: document, host: host, what: "a trust root")
        }
        guard !certificates.isEmpty else {
            throw TLSFailure(kind: .invalidSettings, host: host, message: "the trust roots hold no certificate")
        }
        return certificates
    }

    /// The certificates of a PEM document (one or more), or of one DER certificate.
    static func certificates(in document: Data, host: String, what: String) throws(TLSFailure) -> [NIOSSLCertificate] {
        let bytes = [UInt8](document)
        if let certificates = try? NIOSSLCertificate.fromPEMBytes(bytes), !certificates.isEmpty {
            return certificates
        }
        do {
            return [try NIOSSLCertificate(bytes: bytes, format: .der)]
        } catch {
            throw TLSFailure(kind: .invalidSettings, host: host, message: "\(what) is neither PEM nor DER: \(error)")
        }
    }
}

extension ClientIdentity {
    /// The certificate chain and private key, parsed.
    package func nioSSL(host: String) throws(TLSFailure) -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
        switch self {
        case .pem(let chainPEM, let keyPEM):
            let chain = try TLSSettings.certificates(in: chainPEM, host: host, what: "the client certificate")
            do {
                return (chain, try NIOSSLPrivateKey(bytes: [UInt8](keyPEM), format: .pem))
            } catch {
                throw TLSFailure(kind: .invalidSettings, host: host, message: "the client's private key is not PEM: \(error)")
            }
        case .pkcs12(let bundle, let password):
            do {
                let parsed = try NIOSSLPKCS12Bundle(buffer: [UInt8](bundle), passphrase: Array(password.utf8))
                return (parsed.certificateChain, parsed.privateKey)
            } catch {
                throw TLSFailure(kind: .invalidSettings, host: host, message: "the client's PKCS #12 bundle does not open with its password: \(error)")
            }
        }
    }
}
