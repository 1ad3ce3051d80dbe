import APIWireFormat
import Foundation

/// How calls to one host check the server they reach and prove who they are: which certificates
/// may vouch for the server's, which keys it must present (pinning), and the client's own
/// certificate (mutual TLS). Set per host name in the manager's configuration; other hosts get
/// `.standard`, the system's trust roots and nothing else.
///
/// ```swift
/// APIManager.bootstrap {
///     $0.tls["api.internal.example"] = TLSSettings(
///         trustRoots: .certificates([companyCA]),
///         pins: [.publicKey(sha256: "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=")],
///         clientIdentity: .pem(certificateChain: clientCertificate, privateKey: clientKey)
///     )
/// }
/// ```
///
/// What each transport can honour differs, and a setting a transport cannot honour fails the
/// call with `APIError.Reason.tls` (kind `unsupported`) rather than being ignored:
///
/// | | trust roots | pins | client identity |
/// |---|---|---|---|
/// | AsyncHTTPClient | yes | no (it has no verification hook) | PEM or PKCS #12 |
/// | URLSession, Apple platforms | yes | yes | PKCS #12 |
/// | URLSession, Linux | no | no | no |
/// | gRPC, Linux | yes | yes | PEM or PKCS #12 |
/// | gRPC, Apple platforms | yes | no | PKCS #12 |
public struct TLSSettings: Sendable, Hashable {
    /// The certificates a server's chain must lead to.
    public enum TrustRoots: Sendable, Hashable {
        /// The operating system's trust store.
        case system
        /// Only these certificates, each PEM (one or more certificates) or DER: a company's
        /// own certificate authority, or a server's self-signed certificate.
        case certificates([Data])
    }

    /// The certificate authorities a server's chain must lead to.
    public var trustRoots: TrustRoots
    /// When not empty, a server is trusted only if one certificate of its verified chain
    /// matches one of these; verification by the trust roots still happens first.
    public var pins: [CertificatePin]
    /// The certificate and key the client presents when a server asks for one.
    public var clientIdentity: ClientIdentity?

    /// Settings that trust `trustRoots`, require one of `pins` when there are any, and present `clientIdentity` when asked.
    public init(trustRoots: TrustRoots = .system, pins: [CertificatePin] = [], clientIdentity: ClientIdentity? = nil) {
        self.trustRoots = trustRoots
        self.pins = pins
        self.clientIdentity = clientIdentity
    }

    /// The system's trust roots, no pins, no client certificate.
    public static let standard = TLSSettings()
}

/// A SHA-256 digest a server's certificate chain must contain, written in base64 as OkHttp,
/// TrustKit and HTTP Public Key Pinning write them
/// (`openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`).
///
/// Pin the public key rather than the certificate where you can: a renewed certificate keeps its
/// key. Ship a backup pin, a key not yet in use, so that a lost key does not lock the app out.
public struct CertificatePin: Sendable, Hashable, CustomStringConvertible {
    /// What a pin's digest is taken of.
    public enum Kind: Sendable, Hashable {
        /// The digest of a certificate's DER-encoded SubjectPublicKeyInfo.
        case publicKey
        /// The digest of a whole DER-encoded certificate.
        case certificate
    }

    /// Whether the digest is of a public key or of a whole certificate.
    public var kind: Kind
    /// The digest as written, base64.
    public var sha256: String

    /// A pin of a certificate's public key (its SubjectPublicKeyInfo).
    public static func publicKey(sha256: String) -> CertificatePin {
        CertificatePin(kind: .publicKey, sha256: sha256)
    }

    /// A pin of a whole certificate.
    public static func certificate(sha256: String) -> CertificatePin {
        CertificatePin(kind: .certificate, sha256: sha256)
    }

    /// The 32 bytes of the digest; nil when `sha256` is not base64 of 32 bytes.
    public var digest: Data? {
        Data(base64Encoded: sha256).flatMap { $0.count == 32 ? $0 : nil }
    }

    /// `public key sha256/…`.
    public var description: String {
        "\(kind == .publicKey ? "public key" : "certificate") sha256/\(sha256)"
    }

    /// Throws when a pin is not the base64 of a SHA-256 digest: a typo must not disable pinning.
    package static func digests(of pins: [CertificatePin], host: String) throws(TLSFailure) -> [(kind: Kind, digest: Data)] {
        try pins.map { pin throws(TLSFailure) in
            guard let digest = pin.digest else {
                throw TLSFailure(kind: .invalidSettings, host: host, message: "the pin '\(pin.sha256)' is not the base64 of a 32-byte SHA-256 digest")
            }
            return (pin.kind, digest)
        }
    }
}

/// The certificate a client presents to servers that ask for one (mutual TLS), with its key.
public enum ClientIdentity: Sendable, Hashable {
    /// A PEM certificate chain, the client's certificate first, and its PEM private key.
    case pem(certificateChain: Data, privateKey: Data)
    /// A PKCS #12 bundle (a `.p12` file) and its password: the form Apple platforms import.
    case pkcs12(Data, password: String)
}

extension TLSSettings {
    /// `settings` keyed by `HostName.key`; of two keys for one host, the settings that are not
    /// `.standard` are kept.
    static func byHost(_ settings: [String: TLSSettings]) -> [String: TLSSettings] {
        var table: [String: TLSSettings] = [:]
        for (host, settings) in settings.sorted(by: { $0.key < $1.key }) {
            let key = HostName.key(host)
            if table[key] == nil || table[key] == .standard { table[key] = settings }
        }
        return table
    }
}
