import APIGenKit
import APIManifest
import Foundation
import OpenAPIImport
import Testing
import Yams

/// The importer writes only keys whose declaration says it does (`ManifestKey.uses`), at the
/// places it says, so the table a contributor reads when adding a key is the importer's own.
@Suite("Keys the importer writes", .ownThread)
struct ImportedKeysTests {
    /// A document that uses what the published ones do not: enums by name and by list, a union
    /// with a discriminator and a mapping, a free-form object, a header parameter, a bytes body,
    /// an operation without security, an example, a reply header.
    static let everyShape = #"""
        {"openapi": "3.0.3", "info": {"title": "Shapes", "version": "1"},
         "servers": [{"url": "https://shapes.example.com"}],
         "security": [{"token": []}],
         "components": {
           "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
           "schemas": {
             "Color": {"type": "string", "enum": ["red", "dark-blue"]},
             "Level": {"type": "integer", "enum": [1, 2]},
             "Card": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}, "number": {"type": "string"}}},
             "Bank": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}, "iban": {"type": "string"}}},
             "Payment": {"oneOf": [{"$ref": "#/components/schemas/Card"}, {"$ref": "#/components/schemas/Bank"}],
                         "discriminator": {"propertyName": "kind", "mapping": {"card": "#/components/schemas/Card", "bank": "#/components/schemas/Bank"}}},
             "Bag": {"type": "object", "properties": {"name": {"type": "string", "default": "x"}}, "additionalProperties": true}
           }
         },
         "paths": {
           "/pay": {"post": {"operationId": "pay", "security": [],
             "parameters": [{"name": "X-Trace", "in": "header", "schema": {"type": "string"}, "example": "abc"}],
             "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Payment"}}}},
             "responses": {"200": {"description": "ok", "headers": {"X-Next": {"schema": {"type": "string"}}},
                                   "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Bag"}}}},
                           "422": {"description": "bad", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Bag"}}}}}}},
           "/avatar": {"put": {"operationId": "putAvatar",
             "requestBody": {"content": {"image/png": {"schema": {"type": "string", "format": "binary"}}}},
             "responses": {"204": {"description": "done"}}}},
           "/levels": {"get": {"operationId": "levels", "tags": ["levels"],
             "parameters": [{"name": "color", "in": "query", "schema": {"$ref": "#/components/schemas/Color"}},
                            {"name": "level", "in": "query", "schema": {"$ref": "#/components/schemas/Level"}}],
             "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Bag"}}, "example": [{"name": "a"}]}}}}}}
         }}
        """#

    /// The keys of an API file at the places the key table knows.
    static func keys(ofAPIFile node: Node) -> [KeyPlace: Set<String>] {
        var found: [KeyPlace: Set<String>] = [:]
        func entries(_ node: Node?) -> [(String, Node)] {
            node?.mapping.map { mapping in mapping.compactMap { key, value in key.string.map { ($0, value) } } } ?? []
        }
        func collect(_ node: Node?, _ place: KeyPlace) { found[place, default: []].formUnion(entries(node).map(\.0)) }
        collect(node, .apiFile)
        for (_, type) in entries(node["types"]) {
            collect(type, .type)
            entries(type["fields"]).forEach { collect($0.1, .field) }
        }
        for (_, api) in entries(node["apis"]) {
            collect(api, .restAPI)
            entries(api["parameters"]).forEach { collect($0.1, .parameter) }
            entries(api["responseHeaders"]).forEach { collect($0.1, .responseHeader) }
            collect(api["body"], .wholeBody)
            collect(api["sample"], .sample)
        }
        return found
    }

    @Test("Every key an import writes is one whose declaration says the importer writes it there")
    func writesWhatItSays() throws {
        let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/Imported/openapi")
        var manifests: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".yaml") {
            if let manifest = OpenAPIImporter.importDocument(at: folder.appendingPathComponent(file).path).manifest { manifests.append(manifest) }
        }
        let workspace = try TemporaryWorkspace(files: ["shapes.json": Self.everyShape])
        defer { workspace.remove() }
        manifests.append(try #require(OpenAPIImporter.importDocument(at: workspace.root.appendingPathComponent("shapes.json").path).manifest))

        var written: [KeyPlace: Set<String>] = [:]
        for manifest in manifests {
            for (place, names) in Self.keys(ofAPIFile: try #require(try Yams.compose(yaml: manifest))) {
                written[place, default: []].formUnion(names)
            }
        }
        // The workspace file `apigen import openapi` writes when there is none.
        let workspaceFile = try #require(try Yams.compose(yaml: WorkspaceScaffold.workspaceText(module: "Shapes", baseURL: "https://shapes.example.com")))
        written[.workspace, default: []].formUnion(workspaceFile.mapping?.keys.compactMap(\.string) ?? [])
        written[.defaults, default: []].formUnion(workspaceFile["defaults"]?.mapping?.keys.compactMap(\.string) ?? [])

        let all = written.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        for expected in ["enum", "oneOf", "discriminator", "mapping", "additionalProperties", "contentType", "in", "skipInterceptors", "example", "module", "timeout"] {
            #expect(all.contains(expected), "no import here writes '\(expected)': the test no longer covers it")
        }
        for (place, names) in written {
            let unlisted = names.subtracting(ManifestKeys.names(usedBy: .importer, in: place))
            #expect(unlisted.isEmpty, "the importer writes \(unlisted.sorted()) at \(place), which ManifestKeys does not say it does")
        }
    }
}
