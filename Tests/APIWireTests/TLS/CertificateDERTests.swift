import APIRuntime
import APITestSupport
import Foundation
import SwiftASN1
import Testing
import WireTestSupport
import X509

/// The X.509 reading that Apple platforms' trust evaluation does without swift-certificates,
/// checked against swift-certificates here.
@Suite("Certificates read without an ASN.1 library")
struct CertificateDERTests {
    static func der(_ value: some DERSerializable) throws -> Data {
        var serializer = DER.Serializer()
        try serializer.serialize(value)
        return Data(serializer.serializedBytes)
    }

    @Test("The SubjectPublicKeyInfo of CA, server and client certificates is swift-certificates' own")
    func subjectPublicKeyInfo() throws {
        let authority = try TestCertificateAuthority()
        for identity in [authority.identity, try authority.server(), try authority.client(), try TestCertificateAuthority.selfSignedServer()] {
            let certificate = try Self.der(identity.certificate)
            #expect(CertificateDER.subjectPublicKeyInfo(ofCertificate: certificate) == (try Self.der(identity.certificate.publicKey)))
        }
    }

    @Test("Truncated or foreign bytes give no key, never a crash")
    func malformed() throws {
        let certificate = try Self.der(try TestCertificateAuthority().identity.certificate)
        for length in [0, 1, 2, 10, certificate.count / 2, certificate.count - 1] {
            #expect(CertificateDER.subjectPublicKeyInfo(ofCertificate: certificate.prefix(length)) == nil)
        }
        #expect(CertificateDER.subjectPublicKeyInfo(ofCertificate: Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])) == nil)
        #expect(CertificateDER.subjectPublicKeyInfo(ofCertificate: Data("not DER".utf8)) == nil)
    }

    @Test("A PEM document's certificates, in order; DER passes through")
    func pem() throws {
        let authority = try TestCertificateAuthority()
        let server = try authority.server()
        let document = try server.certificatePEM + authority.identity.certificatePEM
        #expect(CertificateDER.certificates(in: document) == [try Self.der(server.certificate), try Self.der(authority.identity.certificate)])
        let der = try Self.der(server.certificate)
        #expect(CertificateDER.certificates(in: der) == [der])
    }
}
