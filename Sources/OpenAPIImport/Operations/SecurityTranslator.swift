import OpenAPIKit

/// Security schemes. Bearer tokens, OAuth 2 and OpenID Connect are what the runtime's
/// `AuthenticationInterceptor` sends; the others are reported, since a manifest cannot say them.
/// An operation whose `security` is empty goes without the authentication interceptor.
struct SecurityTranslator {
    private let usesTokens: Bool

    init(document: OpenAPIKit.OpenAPI.Document, report: inout ImportDiagnostics) {
        var usesTokens = false
        for (key, either) in document.components.securitySchemes {
            let pointer = JSONPointer(["components", "securitySchemes", key.rawValue])
            guard let scheme = document.components[either] else { continue }
            switch scheme.type {
            case .http(let name, _) where name.lowercased() == "bearer":
                usesTokens = true
            case .oauth2, .openIdConnect:
                usesTokens = true
            case .http(let name, _):
                report.warning("the HTTP '\(name)' security scheme '\(key.rawValue)' is not imported: send its 'Authorization' header from an interceptor of your own", at: pointer)
            case .apiKey(let name, let location):
                report.warning("the API key scheme '\(key.rawValue)' (\(location.rawValue) '\(name)') is not imported: send the key from an interceptor of your own, or in the workspace's default headers", at: pointer)
            case .mutualTLS:
                report.warning("the mutual TLS scheme '\(key.rawValue)' is not imported: give the host a client identity in APIManager.Configuration.tls", at: pointer)
            }
        }
        self.usesTokens = usesTokens
    }

    /// Whether an operation says it needs no credentials (`security: []`) in a document whose
    /// other operations send tokens.
    func skipsAuthentication(_ operation: OpenAPIKit.OpenAPI.Operation, at pointer: JSONPointer, report: inout ImportDiagnostics) -> Bool {
        guard usesTokens, let security = operation.security else { return false }
        return security.isEmpty
    }
}
