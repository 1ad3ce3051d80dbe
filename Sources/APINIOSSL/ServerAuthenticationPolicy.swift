import SwiftASN1
import X509

/// What a TLS server's chain must allow it to do, as BoringSSL checks it: a certificate below the
/// root that names its extended key usages must name server authentication (or any usage).
///
/// swift-certificates' RFC 5280 policy leaves this extension to other policies, and the verifier
/// refuses a chain with a critical extension no policy claims: without this one, a server whose
/// certificate marks its usages critical (as trustme's, and many private authorities', do) would
/// fail whenever the host pins, though it connects without pins.
struct ServerAuthenticationPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.extendedKeyUsage]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        for certificate in chain.dropLast() {
            let usages: ExtendedKeyUsage?
            do {
                usages = try certificate.extensions.extendedKeyUsage
            } catch {
                return .failsToMeetPolicy(reason: "a certificate's extended key usages do not parse: \(error)")
            }
            if let usages, !usages.contains(.serverAuth), !usages.contains(.any) {
                return .failsToMeetPolicy(reason: "a certificate of the chain does not allow server authentication (\(usages))")
            }
        }
        return .meetsPolicy
    }
}
