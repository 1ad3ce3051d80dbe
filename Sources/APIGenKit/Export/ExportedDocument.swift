import APIManifest
import Foundation

/// What an exporter made of a workspace: the document as JSON text, keys sorted so that an
/// unchanged workspace exports the same bytes, or nil when an error (two APIs the format cannot
/// tell apart) would make it invalid; and what it has to say about the APIs it could not describe.
public struct ExportedDocument {
    public var document: Data?
    public var diagnostics: [Diagnostic]

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Serializes `object` unless `diagnostics` holds an error, or the object is not JSON (an
    /// error at `location`, never an empty document).
    static func serializing(_ object: [String: Any], diagnostics: [Diagnostic], at location: SourceLocation) -> ExportedDocument {
        var result = ExportedDocument(document: nil, diagnostics: diagnostics)
        guard !result.hasErrors else { return result }
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else {
            result.diagnostics.append(Diagnostic(.error, "the document could not be written as JSON", at: location))
            return result
        }
        result.document = data
        return result
    }
}
