#if canImport(Security)
import CryptoKit
import Foundation
import Security

extension ClientIdentity {
    /// The identity as Security.framework takes it: imported from the PKCS #12 bundle.
    package func secIdentity(host: String) throws(TLSFailure) -> SecIdentity {
        guard case .pkcs12(let bundle, let password) = self else {
            throw TLSFailure(kind: .unsupported, host: host, message: "Apple platforms take a client identity as PKCS #12 (`.pkcs12`), not PEM")
        }
        var items: CFArray?
        let status = SecPKCS12Import(bundle as CFData, [kSecImportExportPassphrase as String: password] as CFDictionary, &items)
        guard status == errSecSuccess,
              let first = (items as? [[String: Any]])?.first,
              let identity = first[kSecImportItemIdentity as String]
        else {
            throw TLSFailure(kind: .invalidSettings, host: host, message: "the PKCS #12 bundle does not open with its password (OSStatus \(status))")
        }
        // A CFTypeRef from a dictionary of the import's results is always a SecIdentity here.
        return identity as! SecIdentity
    }
}

/// A server's trust, evaluated as a host's `TLSSettings` say: anchored to its trust roots only
/// when it names some, then checked against its pins.
struct ServerTrustEvaluation {
    let settings: TLSSettings
    let host: String

    /// Nil when the server is trusted.
    func failure(of trust: SecTrust) -> TLSFailure? {
        if case .certificates(let documents) = settings.trustRoots {
            let anchors = documents.flatMap(CertificateDER.certificates(in:)).compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
            SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, true)
        }
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else {
            return TLSFailure(kind: .untrustedCertificate, host: host, message: error.map { CFErrorCopyDescription($0) as String } ?? "")
        }
        guard !settings.pins.isEmpty else { return nil }
        let pins: [(kind: CertificatePin.Kind, digest: Data)]
        do {
            pins = try CertificatePin.digests(of: settings.pins, host: host)
        } catch {
            return error
        }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        for certificate in chain {
            let der = SecCertificateCopyData(certificate) as Data
            let certificateDigest = Data(SHA256.hash(data: der))
            let keyDigest = CertificateDER.subjectPublicKeyInfo(ofCertificate: der).map { Data(SHA256.hash(data: $0)) }
            if pins.contains(where: { $0.digest == ($0.kind == .publicKey ? keyDigest : certificateDigest) }) { return nil }
        }
        return TLSFailure(kind: .pinMismatch, host: host, message: "pinned: \(settings.pins.map(\.sha256).joined(separator: ", "))")
    }
}
#endif
