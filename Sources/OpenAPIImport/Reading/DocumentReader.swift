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
                document = try decode(OpenAPIKit30.OpenAPI.Document.self, root: root, paths: \.paths, schemas: \.components.schemas).convert(to: .v3_1_1)
            } else if version.hasPrefix("3.1.") || version.hasPrefix("3.2.") {
                document = try decode(OpenAPIKit.OpenAPI.Document.self, root: root, paths: \.paths, schemas: \.components.schemas)
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
    ///
    /// The two maps that grow with an API, `paths` and `components/schemas`, are decoded an entry
    /// at a time: Yams finds each key of a mapping by searching it from the end, so decoding a map
    /// of n entries in one piece costs n² comparisons (10,000 paths: over a minute). Each entry is
    /// decoded as a document of its own (the `openapi` and `info` of the whole, and the entry at
    /// its place), so that OpenAPIKit reports its errors as it would in the whole document.
    private static func decode<Document: Decodable, PathKey, PathItem, SchemaKey, Schema>(
        _ type: Document.Type, root: Node,
        paths: WritableKeyPath<Document, OrderedDictionary<PathKey, PathItem>>,
        schemas: WritableKeyPath<Document, OrderedDictionary<SchemaKey, Schema>>
    ) throws -> Document {
        guard var top = root.mapping else { return try YAMLDecoder().decode(type, from: root) }
        let entries = takeEntries(at: ["paths"], from: &top) + takeEntries(at: ["components", "schemas"], from: &top)
        var document = try YAMLDecoder().decode(type, from: .mapping(top))
        let skeleton = ["openapi", "info"].compactMap { key in top[key].map { (Node(key), $0) } } + [(Node("paths"), Node.mapping(Node.Mapping([])))]
        for entry in entries {
            var pairs = skeleton
            for (key, value) in entry {
                if let index = pairs.firstIndex(where: { $0.0 == key }) { pairs[index].1 = value } else { pairs.append((key, value)) }
            }
            let one = try YAMLDecoder().decode(type, from: .mapping(Node.Mapping(pairs)))
            for (key, value) in one[keyPath: paths] { document[keyPath: paths][key] = value }
            for (key, value) in one[keyPath: schemas] { document[keyPath: schemas][key] = value }
        }
        return document
    }

    /// Empties the map at `path` (leaving `{}` where it was) and returns each of its entries as
    /// a mapping holding only that entry at the same path. A map with a merge key (`<<`) is left
    /// whole: Yams resolves those only when it decodes the map itself.
    private static func takeEntries(at path: [String], from top: inout Node.Mapping) -> [Node.Mapping] {
        guard let first = path.first, let child = top[first]?.mapping else { return [] }
        if path.count > 1 {
            var inner = child
            let entries = takeEntries(at: Array(path.dropFirst()), from: &inner)
            guard !entries.isEmpty else { return [] }
            top[first] = .mapping(inner)
            return entries.map { Node.Mapping([(Node(first), .mapping($0))]) }
        }
        guard !child.keys.contains(where: { $0.string == "<<" }) else { return [] }
        top[first] = .mapping(Node.Mapping([], child.tag, child.style, child.mark))
        return child.map { Node.Mapping([(Node(first), .mapping(Node.Mapping([($0.key, $0.value)])))]) }
    }
}
