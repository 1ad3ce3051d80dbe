import APIRuntime

extension TLSFailure {
    /// What a NIOSSL handshake error means, found anywhere in `error`'s description (transports
    /// wrap NIOSSL's errors in their own); nil when it is no TLS error.
    ///
    /// BoringSSL's reason names are its stable identifiers: the alerts a server sends when it
    /// wants a client certificate (`CERTIFICATE_REQUIRED` in TLS 1.3, a handshake failure or bad
    /// certificate in TLS 1.2) and the client's own verification failure.
    package init?(nioSSLError error: any Error, host: String) {
        let text = String(reflecting: error)
        let kind: Kind
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            kind = .untrustedCertificate
        } else if ["CERTIFICATE_REQUIRED", "ALERT_BAD_CERTIFICATE", "ALERT_UNKNOWN_CA", "ALERT_CERTIFICATE_UNKNOWN", "ALERT_HANDSHAKE_FAILURE"].contains(where: text.contains) {
            kind = .clientCertificateRefused
        } else if text.contains("handshakeFailed") {
            // Only the handshake: NIOSSL's other errors (a connection closed without close_notify,
            // say) come from a connection already set up and stay transport errors.
            kind = .handshake
        } else {
            return nil
        }
        self.init(kind: kind, host: host, message: Self.reason(in: text) ?? text)
    }

    /// `CERTIFICATE_VERIFY_FAILED` out of BoringSSL's `error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED`.
    private static func reason(in text: String) -> String? {
        guard let range = text.range(of: "OPENSSL_internal:") else { return nil }
        return String(text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }
}

extension TLSFailure {
    /// As `init(nioSSLError:host:)`, with the reason `verifier` found when it failed the chain
    /// (a pin mismatch rather than an untrusted certificate).
    package init?(nioSSLError error: any Error, host: String, verifier: ChainVerifier?) {
        guard var failure = TLSFailure(nioSSLError: error, host: host) else { return nil }
        if failure.kind == .untrustedCertificate, let found = verifier?.failure { failure = found }
        self = failure
    }
}
