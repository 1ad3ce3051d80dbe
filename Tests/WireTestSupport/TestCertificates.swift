import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate and its private key, made by a test.
public struct TestIdentity {
    public let certificate: Certificate
    public let key: P256.Signing.PrivateKey

    public var certificatePEM: Data { get throws { Data(try certificate.serializeAsPEM().pemString.utf8) } }
    public var keyPEM: Data { Data(key.pemRepresentation.utf8) }

    /// The base64 SHA-256 of the certificate's SubjectPublicKeyInfo: what a public-key pin names.
    public var publicKeyPin: String {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate.publicKey)
            return Data(SHA256.hash(data: serializer.serializedBytes)).base64EncodedString()
        }
    }

    /// The base64 SHA-256 of the whole DER certificate.
    public var certificatePin: String {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return Data(SHA256.hash(data: serializer.serializedBytes)).base64EncodedString()
        }
    }

    public var nioCertificate: NIOSSLCertificate { get throws { try NIOSSLCertificate(bytes: [UInt8](certificatePEM), format: .pem) } }
    public var nioKey: NIOSSLPrivateKey { get throws { try NIOSSLPrivateKey(bytes: [UInt8](keyPEM), format: .pem) } }
}

/// A certificate authority of the test's own, and the leaves it signs: P-256 keys, valid from an
/// hour ago for a day.
public struct TestCertificateAuthority {
    public let identity: TestIdentity
    private let name: DistinguishedName

    public init(name commonName: String = "apigen test CA") throws {
        let name = try DistinguishedName { CommonName(commonName) }
        self.identity = try Self.selfSigned(name: name, extensions: try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
        })
        self.name = name
    }

    /// A server certificate for `localhost` and 127.0.0.1.
    public func server() throws -> TestIdentity {
        try leaf(commonName: "localhost", usage: .serverAuth, names: [.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
    }

    /// A client certificate.
    public func client() throws -> TestIdentity {
        try leaf(commonName: "apigen test client", usage: .clientAuth, names: [])
    }

    /// A server certificate for `localhost` signed by its own key: trusted by nobody by default.
    public static func selfSignedServer() throws -> TestIdentity {
        try selfSigned(name: try DistinguishedName { CommonName("localhost") }, extensions: try Certificate.Extensions {
            SubjectAlternativeNames([.dnsName("localhost")])
            try ExtendedKeyUsage([.serverAuth])
        })
    }

    /// A certificate for a new key, signed by that key.
    private static func selfSigned(name: DistinguishedName, extensions: Certificate.Extensions) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400,
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: .init(key)
        )
        return TestIdentity(certificate: certificate, key: key)
    }

    private func leaf(commonName: String, usage: ExtendedKeyUsage.Usage, names: [GeneralName]) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400,
            issuer: name, subject: try DistinguishedName { CommonName(commonName) }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage])
                if !names.isEmpty { SubjectAlternativeNames(names) }
            },
            issuerPrivateKey: .init(identity.key)
        )
        return TestIdentity(certificate: certificate, key: key)
    }
}
