import Foundation

/// The little of X.509 that trust evaluation on Apple platforms needs without an ASN.1 library:
/// certificates out of PEM text, and a certificate's SubjectPublicKeyInfo, whose digest is what
/// public-key pins name. (The SwiftNIO transports use swift-certificates instead.)
package enum CertificateDER {
    /// The DER certificates of a PEM document, or the document itself when it is not PEM.
    package static func certificates(in document: Data) -> [Data] {
        let text = String(decoding: document, as: UTF8.self)
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        guard text.contains(begin) else { return [document] }
        var certificates: [Data] = []
        var rest = text[...]
        while let start = rest.range(of: begin), let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) {
            let base64 = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            if let der = Data(base64Encoded: String(base64)) { certificates.append(der) }
            rest = rest[stop.upperBound...]
        }
        return certificates
    }

    /// The DER encoding of the certificate's SubjectPublicKeyInfo: the seventh element of its
    /// TBSCertificate when that starts with the explicit version tag, else the sixth.
    package static func subjectPublicKeyInfo(ofCertificate certificate: Data) -> Data? {
        let bytes = [UInt8](certificate)
        guard let outer = element(in: bytes, at: 0), outer.tag == 0x30,
              let tbs = element(in: bytes, at: outer.contentStart), tbs.tag == 0x30
        else { return nil }
        var position = tbs.contentStart
        var index = 0
        while position < tbs.end, let field = element(in: bytes, at: position) {
            // version [0], serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo
            let spkiIndex = bytes[tbs.contentStart] == 0xA0 ? 6 : 5
            if index == spkiIndex { return field.tag == 0x30 ? Data(bytes[position..<field.end]) : nil }
            position = field.end
            index += 1
        }
        return nil
    }

    /// One DER element (tag, length, contents) starting at `start`.
    private static func element(in bytes: [UInt8], at start: Int) -> (tag: UInt8, contentStart: Int, end: Int)? {
        guard start + 2 <= bytes.count else { return nil }
        let tag = bytes[start]
        var position = start + 1
        let first = Int(bytes[position])
        position += 1
        var length = first
        if first & 0x80 != 0 {
            let count = first & 0x7F
            guard (1...4).contains(count), position + count <= bytes.count else { return nil }
            length = bytes[position..<position + count].reduce(0) { $0 << 8 | Int($1) }
            position += count
        }
        guard length <= bytes.count - position else { return nil }
        return (tag, position, position + length)
    }
}
