// Extracted from docs/tls.md by `make doc-samples`. Do not edit.

import APIRuntime
import ExampleClient
import Foundation

enum TlsSamples {
    // docs/tls.md:7
    static func sample7() async throws {
        APIManager.bootstrap {
            $0.httpTransport = .asyncHTTPClient
            $0.tls["api.internal.example"] = TLSSettings(
                trustRoots: .certificates([companyCAPEM]),                       // only these, not the system's
                pins: [.publicKey(sha256: "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=")],   // SPKI digest, base64
                clientIdentity: .pem(certificateChain: clientPEM, privateKey: keyPEM) // or .pkcs12(data, password:)
            )
        }
    }
}
