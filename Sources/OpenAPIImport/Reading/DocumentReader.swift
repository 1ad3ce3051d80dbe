import APIManifest
import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Reads an OpenAPI 3.0, 3.1 or 3.2 document (YAML or JSON) with OpenAPIKit, 3.0 converted to
/// 3.1, and validates it. A document that does not decode or validate gives errors at JSON
/// pointers with their lines, and no document.
enum DocumentReader {
    struct Read {
        var document: OpenAPIKit.OpenAPI.Document
        var sourceMap: SourceMap
        /// The version the document declares, `3.0.3` say.
        var version: String
    }

    static func read(_ file: String, into diagnostics: inout Diagnostics) -> Read? {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            diagnostics.error("cannot read the OpenAPI document: \(error.localizedDescription)", at: .file(file))
            return nil
        }
        // Read as YAMLDecoder reads text (merge keys resolved, scalars typed as they are
        // decoded), so that the same nodes serve the decoder and the JSON pointers' lines; within
        // the manifest reader's limits on nesting and aliases, and libyaml's errors at their line.
        guard let root = YAMLDocument.compose(text, file: file, resolver: Resolver.basic.appending(.merge), kind: "an OpenAPI document", into: &diagnostics) else {
            return nil
        }
        let sourceMap = SourceMap(file: file, root: root)
        var report = ImportDiagnostics(sourceMap: sourceMap)
        defer { diagnostics.append(contentsOf: report.finished()) }

        guard let version = root.mapping?["openapi"]?.string else {
            if let swagger = root.mapping?["swagger"]?.string {
                report.error("Swagger \(swagger) is not supported: convert the document to OpenAPI 3 first (for example with swagger2openapi)", at: JSONPointer(["swagger"]))
            } else {
                report.error("not an OpenAPI document: it has no 'openapi' version", at: .root)
            }
            return nil
        }
        do {
            let document: OpenAPIKit.OpenAPI.Document
            if version.hasPrefix("3.0.") {
                document = try decode(OpenAPIKit30.OpenAPI.Document.self, root: root).convert(to: .v3_1_1)
            } else if version.hasPrefix("3.1.") || version.hasPrefix("3.2.") {
                document = try decode(OpenAPIKit.OpenAPI.Document.self, root: root)
            } else {
                report.error("OpenAPI \(version) is not supported: apigen reads 3.0, 3.1 and 3.2", at: JSONPointer(["openapi"]))
                return nil
            }
            try document.validate(strict: false)
            return Read(document: document, sourceMap: sourceMap, version: version)
        } catch let errors as OpenAPIKit.ValidationErrorCollection {
            for error in errors.values {
                report.error(error.reason, at: JSONPointer(codingPath: error.codingPath))
            }
            return nil
        } catch {
            let decodingError = OpenAPIKit.OpenAPI.Error(from: error)
            let message = decodingError.localizedDescription.split(whereSeparator: \.isNewline).joined(separator: " ")
            report.error(message, at: JSONPointer(codingPath: decodingError.codingPath))
            return nil
        }
    }

    /// JSON and YAML alike are decoded from the nodes already read: their mappings keep the
    /// document's order, which OpenAPIKit's ordered dictionaries (paths, schemas, properties)
    /// take from the decoder. Foundation's JSONDecoder hands keys over in the order of a hashed
    /// dictionary, which differs from one run of the process to the next.
    private static func decode<Document: Decodable>(_ type: Document.Type, root: Node) throws -> Document {
        try YAMLDecoder().decode(type, from: root)
    }
}
