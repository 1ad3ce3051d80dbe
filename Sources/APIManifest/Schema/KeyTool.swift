/// The tools besides the generator that read or write manifests. Every key says which of them
/// has a use for it (`ManifestKey.uses`, an argument with no default), so that a new key is a
/// decision for each tool and not a silent gap in one.
public enum KeyTool: String, CaseIterable, Sendable {
    /// `apigen import openapi`: it writes the key.
    case importer
    /// `apigen export openapi` and `apigen export openrpc`: the key's meaning reaches the document.
    case exporter
    /// `apigen verify`: the key changes the call it makes or how it judges the reply.
    case contractCheck
    /// `apigen serve`: the key changes what it answers.
    case mockServer

    /// The column the key tables give it.
    var title: String {
        switch self {
        case .importer: "import"
        case .exporter: "export"
        case .contractCheck: "verify"
        case .mockServer: "serve"
        }
    }
}
