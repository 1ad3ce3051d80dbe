import APIWireFormat

/// Where calls go: the base URLs manifests declare, as a manager's `baseURLOverrides` map them,
/// each replacement parsed once.
struct BaseURLResolver: Sendable {
    /// `configuration.baseURLOverrides`, each replacement parsed once (nil when it is no base URL),
    /// with its origin.
    let overrides: [String: (text: String, parsed: BaseURL?, origin: Origin?)]

    init(overrides: [String: String]) {
        self.overrides = overrides.mapValues { ($0, BaseURL($0), Origin($0)) }
    }

    /// `declared` as the overrides map it.
    func mapped(_ declared: String) -> String {
        overrides[declared]?.text ?? declared
    }

    /// The origins of the base URLs `definition`'s manifest and workspace declare, as the overrides
    /// map them, for a call's `APICallContext`: worked out when the definition or the manager was
    /// made, not on each call.
    func declaredOrigins(of definition: APIDefinition) -> (declared: Origin?, workspace: Origin?) {
        func mapped(_ text: String?, _ origin: Origin?) -> Origin? {
            guard let text, let override = overrides[text] else { return origin }
            return override.origin
        }
        return (mapped(definition.declaredBaseURL, definition.declaredOrigin), mapped(definition.defaults.baseURL, definition.defaults.origin))
    }

    /// Where a call goes: the base URL its options give, else the one its manifest declares as
    /// `baseURLOverrides` maps it (parsed when the definition or the manager was made); with the
    /// declared one, mapped, for interceptors that trust only the servers a workspace names.
    func baseURL(of definition: APIDefinition, options: APICallOptions) throws(APIError) -> (BaseURL, declared: String?) {
        func invalid(_ message: String) -> APIError {
            APIError(api: definition.name, reason: .invalidRequest(message: message))
        }
        let declared = definition.declaredBaseURL.map { mapped($0) }
        if let text = options.baseURL {
            guard let base = BaseURL(text) else { throw invalid("'\(text)' is not a base URL: it needs a scheme and a host, and no query or fragment") }
            return (base, declared)
        }
        guard let declaredText = definition.declaredBaseURL else {
            throw invalid("no base URL: set 'baseURL' in the workspace defaults or the API, or in the call's options")
        }
        let parsed = overrides[declaredText].map(\.parsed) ?? definition.parsedBaseURL
        guard let parsed, let declared else {
            throw invalid("'\(declared ?? declaredText)' is not a base URL: it needs a scheme and a host, and no query or fragment")
        }
        return (parsed, declared)
    }
}
