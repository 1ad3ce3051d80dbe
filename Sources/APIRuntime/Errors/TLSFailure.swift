/// Why a TLS connection to a server failed, as `APIError.Reason.tls` reports it.
public struct TLSFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in the terms a fix needs.
    public enum Kind: Sendable, Hashable {
        /// The server's certificate does not lead to a trusted root, has expired, or does not
        /// name the host: a self-signed server under the default settings fails so.
        case untrustedCertificate
        /// The server's chain was trusted but contains none of the pinned keys or certificates.
        case pinMismatch
        /// The server refused the client: it asked for a client certificate and got none, or
        /// did not trust the one it got.
        case clientCertificateRefused
        /// The host's `TLSSettings` cannot be used: a certificate or key that does not parse, a
        /// pin that is not a digest.
        case invalidSettings
        /// The transport cannot honour the host's `TLSSettings` on this platform (pins with
        /// AsyncHTTPClient, any setting with Linux's URLSession).
        case unsupported
        /// The handshake failed for another reason: no common protocol version or cipher.
        case handshake
    }

    /// What went wrong.
    public var kind: Kind
    /// The host the connection was for.
    public var host: String
    /// What the TLS library said, or what is wrong with the settings.
    public var message: String

    /// A failure of `kind` for `host`, with what the TLS library said.
    public init(kind: Kind, host: String, message: String) {
        self.kind = kind
        self.host = host
        self.message = message
    }

    /// `api.example.com: the server's certificate is not trusted (…)`.
    public var description: String {
        let what = switch kind {
        case .untrustedCertificate: "the server's certificate is not trusted"
        case .pinMismatch: "the server's certificate chain matches no pin"
        case .clientCertificateRefused: "the server refused the client's certificate, or its absence"
        case .invalidSettings: "the TLS settings cannot be used"
        case .unsupported: "the transport cannot honour the TLS settings"
        case .handshake: "the TLS handshake failed"
        }
        return "\(host): \(what)" + (message.isEmpty ? "" : " (\(message))")
    }
}
