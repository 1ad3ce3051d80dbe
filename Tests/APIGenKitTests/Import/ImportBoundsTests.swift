import APIManifest
import Foundation
@testable import OpenAPIImport
import Testing

/// Documents shaped to exhaust an importer: long reference chains, deep nesting, errors deep in
/// a large map. Each imports, or fails with an error at its pointer, without crashing.
@Suite("OpenAPI import of long chains and deep nesting", .ownThread)
struct ImportBoundsTests {
    static func document(schemas: [String], response: String = ##"{"$ref": "#/components/schemas/S0"}"##) -> String {
        #"""
        {"openapi": "3.0.3", "info": {"title": "Bounds", "version": "1"},
         "paths": {"/a": {"get": {"operationId": "getA", "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": \#(response)}}}}}}},
         "components": {"schemas": {\#(schemas.joined(separator: ", "))}}}
        """#
    }

    @Test("A chain of 2,000 component schemas, each referring to the next, imports whole and validates", .timeLimit(.minutes(2)))
    func longReferenceChain() throws {
        let count = 2000
        let schemas = (0..<count).map { ##""S\##($0)": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/S\##($0 + 1)"}, "value": {"type": "integer"}}}"## }
            + [#""S\#(count)": {"type": "object", "properties": {"value": {"type": "integer"}}}"#]
        let workspace = try TemporaryWorkspace(files: ["chain.json": Self.document(schemas: schemas)])
        defer { workspace.remove() }
        let path = workspace.root.appendingPathComponent("chain.json").path
        let (manifest, diagnostics) = try onLargeStack { try OpenAPIImportTests.importAndLint(path) }
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(manifest.contains("  S0:\n") && manifest.contains("  S\(count):\n"))
        #expect(manifest.contains("      next: S\(count)?\n"))
    }

    @Test("Nesting past 64 schemas, inline or through references to schemas that are not objects, is one error at its pointer", arguments: ["inline", "references"])
    func nestingLimit(shape: String) throws {
        let text: String
        if shape == "inline" {
            var schema = #"{"type": "string"}"#
            for _ in 0..<70 { schema = #"{"type": "object", "properties": {"x": \#(schema), "y": {"type": "integer"}}}"# }
            text = Self.document(schemas: [], response: schema)
        } else {
            let schemas = (0..<100).map { ##""S\##($0)": {"type": "array", "items": {"$ref": "#/components/schemas/S\##($0 + 1)"}}"## } + [##""S100": {"type": "string"}"##]
            text = Self.document(schemas: schemas)
        }
        let workspace = try TemporaryWorkspace(files: ["deep.json": text])
        defer { workspace.remove() }
        let path = workspace.root.appendingPathComponent("deep.json").path
        let result = try onLargeStack { OpenAPIImporter.importDocument(at: path) }
        #expect(result.manifest == nil || result.diagnostics.hasErrors)
        let errors = result.diagnostics.errors
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.message.hasSuffix(": schemas nest more than 64 levels deep here; apigen imports at most 64") == true, "\(errors)")
        let place = shape == "inline" ? "#/paths/~1a/get/responses/200/content/application~1json/schema/properties/x/" : "#/components/schemas/S"
        #expect(errors.first?.message.hasPrefix(place) == true, "\(errors)")
    }

    @Test("An error in one schema of components keeps its pointer and line, though the map is decoded an entry at a time")
    func errorInsideComponents() throws {
        let text = "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths: {}\ncomponents:\n  schemas:\n    Fine: { type: object }\n    Broken:\n      type: object\n      properties: 42\n"
        let workspace = try TemporaryWorkspace(files: ["broken.yaml": text])
        defer { workspace.remove() }
        let result = OpenAPIImporter.importDocument(at: workspace.root.appendingPathComponent("broken.yaml").path)
        #expect(result.manifest == nil)
        let error = try #require(result.diagnostics.errors.first)
        #expect(error.message.hasPrefix("#/components/schemas/Broken"), "\(error)")
        #expect(error.location.line >= 7, "\(error)")
    }

    @Test("A component with no manifest type is spelled JSON wherever it is used, even where it is used before it is declared")
    func undeclaredSpelledAfterwards() throws {
        let schemas = [
            ##""Holder": {"type": "object", "required": ["shape"], "properties": {"shape": {"$ref": "#/components/schemas/Shape"}, "shapes": {"type": "array", "items": {"$ref": "#/components/schemas/Shape"}}}}"##,
            #""Shape": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]}"#,
        ]
        let workspace = try TemporaryWorkspace(files: ["shapes.json": Self.document(schemas: schemas, response: ##"{"$ref": "#/components/schemas/Holder"}"##)])
        defer { workspace.remove() }
        let (manifest, _) = try OpenAPIImportTests.importAndLint(workspace.root.appendingPathComponent("shapes.json").path)
        #expect(manifest.contains("      shape: JSON\n"), "\(manifest)")
        #expect(manifest.contains("      shapes: '[JSON]?'\n"), "\(manifest)")
        #expect(!manifest.contains("Shape:"), "\(manifest)")
    }
}

extension ImportBoundsTests {
    @Test("The cycle check walks a chain of 20,000 models that closes on itself without deep recursion, and breaks it once")
    func cycleCheckOnALongChain() {
        let count = 20_000
        var types = (0..<count).map { index in
            ImportedType(name: "M\(index)", shape: .model(fields: [ImportedField(name: "next", type: "M\((index + 1) % count)?")], additionalProperties: false))
        }
        var report = ImportDiagnostics(sourceMap: SourceMap(file: "chain.json", root: nil))
        RecursionCheck.breakCycles(in: &types, fieldPointers: [:], origins: [:], report: &report)
        let warnings = report.finished().all
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.hasPrefix("#: 'M\(count - 1)' contains itself through 'next' (M0 → M1 → M2") == true, "\(warnings.first.map { String($0.message.prefix(200)) } ?? "")")
        guard case .model(let fields, _) = types[count - 1].shape else { Issue.record("not a model"); return }
        #expect(fields.first?.type == "JSON?")
        guard case .model(let first, _) = types[0].shape else { Issue.record("not a model"); return }
        #expect(first.first?.type == "M1?")
    }
}
