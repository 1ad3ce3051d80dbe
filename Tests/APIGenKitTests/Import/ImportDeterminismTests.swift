import Foundation
@testable import OpenAPIImport
import Testing

/// `apigen import openapi` gives the same bytes every run: each import below runs in a process of
/// its own, as a team re-importing on every change of the spec would, and Swift seeds its hashing
/// afresh in each process, so an order taken from a hashed dictionary would differ between them.
@Suite("apigen import openapi is deterministic", .ownThread)
struct ImportDeterminismTests {
    /// Documents shaped like three publishers', their keys in an order no sort gives.
    static let documents: [(name: String, text: String)] = [
        ("fastapi.json", ShapedDocument.fastAPI(schemas: 24)),
        ("github.json", ShapedDocument.gitHub(schemas: 24)),
        ("stripe.yaml", ShapedDocument.stripe(schemas: 24)),
    ]

    @Test("The same document imported in two processes gives the same manifest, in the document's order", arguments: documents.map(\.name))
    func sameBytes(document name: String) throws {
        let text = try #require(Self.documents.first { $0.name == name }?.text)
        var manifests: [String] = []
        for _ in 0..<2 {
            let workspace = try TemporaryWorkspace(files: [name: text])
            defer { workspace.remove() }
            let result = try APIGenBinary.run(["import", "openapi", "-q", name], in: workspace.root)
            #expect(result.status == 0, "\(result.stderr)")
            let stem = (name as NSString).deletingPathExtension
            manifests.append(try #require(workspace.read("apis/\(stem).yaml")))
        }
        #expect(manifests[0] == manifests[1])

        // Types and APIs keep the order the document gives them, not an alphabetical one.
        let manifest = manifests[0]
        let positions = ShapedDocument.schemaNames(24).compactMap { manifest.range(of: "\n  \($0):\n")?.lowerBound }
        #expect(positions.count == 24)
        #expect(positions == positions.sorted())
        let fields = ShapedDocument.fieldNames.compactMap { manifest.range(of: "\n      \(Naming.memberName($0)):")?.lowerBound }
        #expect(fields.count == ShapedDocument.fieldNames.count)
        #expect(fields == fields.sorted(), "fields of the first type out of the document's order")
    }
}

/// Generated OpenAPI documents in the shapes FastAPI, GitHub and Stripe publish.
enum ShapedDocument {
    /// Field names in an order that is neither alphabetical nor by length.
    static let fieldNames = ["updated_at", "id", "zone", "amount", "name", "created_at", "kind", "metadata", "balance", "owner"]

    /// `Item07Mxq`: names whose sorted order differs from the document's.
    static func schemaNames(_ count: Int) -> [String] {
        (0..<count).map { index in "Item\(String(format: "%02d", (index * 7) % count))\(["Mxq", "Abc", "Zed"][index % 3])" }
    }

    private static func properties(json: Bool) -> String {
        fieldNames.enumerated().map { index, name in
            let type = ["string", "integer", "number", "boolean"][index % 4]
            return json ? "\"\(name)\": {\"type\": \"\(type)\"}" : "        \(name): { type: \(type) }"
        }.joined(separator: json ? ", " : "\n")
    }

    /// FastAPI: OpenAPI 3.1 in JSON, `title`s everywhere, query parameters with defaults.
    static func fastAPI(schemas count: Int) -> String {
        let names = schemaNames(count)
        let paths = names.map { name in
            """
            "/\(name.lowercased())s": {"get": {"operationId": "read_\(name.lowercased())s_get", "parameters": [{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "default": 10, "title": "Limit"}}, {"name": "skip", "in": "query", "required": false, "schema": {"type": "integer", "default": 0, "title": "Skip"}}], "responses": {"200": {"description": "Successful Response", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/\(name)"}}}}}}}
            """
        }
        let schemas = names.map { name in
            "\"\(name)\": {\"title\": \"\(name)\", \"type\": \"object\", \"properties\": {\(properties(json: true))}, \"required\": [\"id\", \"name\"]}"
        }
        return """
        {"openapi": "3.1.0", "info": {"title": "FastAPI", "version": "0.1.0"}, "paths": {\(paths.joined(separator: ", "))}, "components": {"schemas": {\(schemas.joined(separator: ", "))}}}
        """
    }

    /// GitHub: OpenAPI 3.0 in JSON, path parameters, tags, vendor extensions, nullable fields.
    static func gitHub(schemas count: Int) -> String {
        let names = schemaNames(count)
        let paths = names.map { name in
            """
            "/repos/{owner}/{repo}/\(name.lowercased())": {"get": {"summary": "Get \(name)", "tags": ["repos"], "operationId": "repos/get-\(name.lowercased())", "x-github": {"category": "repos"}, "parameters": [{"name": "owner", "in": "path", "required": true, "schema": {"type": "string"}}, {"name": "repo", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "Response", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/\(name)"}}}}}}}
            """
        }
        let schemas = names.map { name in
            "\"\(name)\": {\"type\": \"object\", \"properties\": {\(properties(json: true)), \"parent\": {\"type\": \"string\", \"nullable\": true}}, \"required\": [\"id\"]}"
        }
        return """
        {"openapi": "3.0.3", "info": {"title": "GitHub v3 REST API", "version": "1.1.4"}, "servers": [{"url": "https://api.github.com"}], "paths": {\(paths.joined(separator: ", "))}, "components": {"schemas": {\(schemas.joined(separator: ", "))}}}
        """
    }

    /// Stripe: OpenAPI 3.0 in YAML, descriptions, `anyOf` expandable fields, POSTed bodies.
    static func stripe(schemas count: Int) -> String {
        let names = schemaNames(count)
        let paths = names.map { name in
            """
              /v1/\(name.lowercased()):
                post:
                  operationId: Post\(name)
                  description: Creates a \(name).
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema: { $ref: '#/components/schemas/\(name)' }
                  responses:
                    '200':
                      description: Successful response.
                      content:
                        application/json:
                          schema: { $ref: '#/components/schemas/\(name)' }
            """
        }
        let schemas = names.map { name in
            """
                \(name):
                  description: A \(name) object.
                  type: object
                  properties:
            \(properties(json: false))
                    customer:
                      anyOf:
                        - type: string
                        - type: integer
                  required: [id]
            """
        }
        return """
        openapi: 3.0.0
        info: { title: Stripe API, version: '2024-06-20' }
        servers: [{ url: 'https://api.stripe.com/' }]
        paths:
        \(paths.joined(separator: "\n"))
        components:
          schemas:
        \(schemas.joined(separator: "\n"))

        """
    }
}
