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

    /// The places it reads or writes keys at: a key it uses elsewhere is used here only where
    /// both say so. The importer writes REST APIs alone, the exporters describe REST and JSON-RPC,
    /// `apigen verify` calls all but a team's own RPC protocol, `apigen serve` answers REST and
    /// JSON-RPC.
    var places: Set<KeyPlace> {
        let common: Set<KeyPlace> = [.workspace, .defaults, .apiFile, .type, .field, .parameter]
        return switch self {
        case .importer: common.union([.responseHeader, .wholeBody, .restAPI, .sample])
        case .exporter: common.union([.responseHeader, .wholeBody, .restAPI, .jsonrpcAPI])
        case .contractCheck: Set(KeyPlace.allCases).subtracting([.rpcAPI])
        case .mockServer: common.union([.restAPI, .jsonrpcAPI, .sample])
        }
    }

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
