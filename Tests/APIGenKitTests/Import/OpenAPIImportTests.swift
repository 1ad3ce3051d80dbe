import APIGenKit
import APIManifest
import Foundation
import OpenAPIImport
import Testing
import Yams

/// `apigen import openapi` on published documents (Tests/Fixtures/Imported/openapi) and on one
/// that uses what they do not: every result must validate as a workspace.
@Suite("OpenAPI import", .ownThread)
struct OpenAPIImportTests {
    static let documents = repositoryRoot.appendingPathComponent("Tests/Fixtures/Imported/openapi")

    /// Imports `file` into a fresh workspace and validates it as `apigen lint` does.
    static func importAndLint(_ file: String) throws -> (manifest: String, diagnostics: [Diagnostic]) {
        let result = OpenAPIImporter.importDocument(at: file)
        let manifest = try #require(result.manifest, "\(result.diagnostics.all)")
        let workspace = try TemporaryWorkspace(api: manifest)
        defer { workspace.remove() }
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .validate)
        #expect(report.succeeded, "\(report.diagnostics.errors)\n\(manifest)")
        return (manifest, result.diagnostics.all)
    }

    /// The manifest a JSON `document` imports to, which validates.
    static func imported(_ document: String) throws -> String {
        let workspace = try TemporaryWorkspace(files: ["document.json": document])
        defer { workspace.remove() }
        return try importAndLint(workspace.root.appendingPathComponent("document.json").path).manifest
    }

    @Test("Published documents (OpenAPI 3.0 and 3.1) import without warnings into manifests that validate",
          arguments: ["petstore.yaml", "petstore-3.1.yaml", "read-only-write-only.yaml"])
    func publishedDocuments(_ name: String) throws {
        let (manifest, diagnostics) = try Self.importAndLint(Self.documents.appendingPathComponent(name).path)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(manifest.contains("apis:\n"))
    }

    @Test("What apigen commits for the fixture is what it imports now")
    func fixtureIsCurrent() throws {
        for name in ["petstore", "read-only-write-only", "bookshop"] {
            let result = OpenAPIImporter.importDocument(at: Self.documents.appendingPathComponent(name + ".yaml").path, workspaceBaseURL: .some("http://petstore.swagger.io/v1"))
            let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/Imported/apis/\(name).yaml"), encoding: .utf8)
            #expect(result.manifest == committed)
        }
    }

    @Test("Response examples become samples: an example, a referenced one of examples, the first with a value after an external one")
    func examplesBecomeSamples() throws {
        let (manifest, diagnostics) = try Self.importAndLint(Self.documents.appendingPathComponent("bookshop.yaml").path)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        // getBook's `example`, with a string that YAML would read as a number kept a string.
        #expect(manifest.contains("""
                response: Book
                sample:
                  body:
                    inPrint: false
                    isbn: "9780131103627"
            """))
        // listBooks's `examples`, through #/components/examples.
        #expect(manifest.contains("    sample:\n      body:\n      - inPrint: false\n"))
        // addBook's status, and the inline value after an external one, which is not fetched.
        #expect(manifest.contains("    sample:\n      status: 201\n      body:\n        inPrint: true\n"))
        // removeBook answers nothing, so it has no sample.
        #expect(manifest.components(separatedBy: "sample:").count == 4)
    }

    @Test("A model that holds itself other than through a list: a warning with the JSON pointer and line, the member imported as JSON")
    func recursiveProperty() throws {
        let file = Self.documents.appendingPathComponent("property-recursive.yaml").path
        let (manifest, diagnostics) = try Self.importAndLint(file)
        let warning = try #require(diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.description.hasPrefix("\(file):14:11: warning: #/components/schemas/SomeDataType/properties/prop1: 'SomeDataType' contains itself"))
        #expect(manifest.contains("prop1: JSON?"))
    }

    @Test("A document that is not valid: an error at its JSON pointer and line, and no manifest")
    func invalidDocument() throws {
        let file = Self.documents.appendingPathComponent("missing-description.yaml").path
        let result = OpenAPIImporter.importDocument(at: file)
        #expect(result.manifest == nil)
        let error = try #require(result.diagnostics.errors.first)
        #expect(error.description.hasPrefix("\(file):15:11: error: #/paths/~1/get/responses/200: "))
        #expect(error.message.contains("description"))
        #expect(!error.message.contains("\n"))
    }

    @Test("A parameter's default (FastAPI's `limit: int = 10`, or its referenced schema's) is kept as its default, its type no longer optional; a default of another type is not")
    func parameterDefaults() throws {
        let document = #"""
        {"openapi": "3.1.0", "info": {"title": "FastAPI", "version": "0.1.0"},
         "paths": {"/items/": {"get": {"operationId": "read_items_items__get", "parameters": [
           {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "default": 10, "title": "Limit"}},
           {"name": "q", "in": "query", "required": false, "schema": {"type": "string", "default": "all"}},
           {"name": "order", "in": "query", "required": false, "schema": {"$ref": "#/components/schemas/Order"}},
           {"name": "sort", "in": "query", "required": false, "schema": {"type": "string", "enum": ["asc", "desc"], "default": "desc"}},
           {"name": "x-dry-run", "in": "header", "required": false, "schema": {"type": "boolean", "default": false}},
           {"name": "page", "in": "query", "required": false, "schema": {"type": "integer", "default": "first"}},
           {"name": "owner", "in": "query", "required": true, "schema": {"type": "string"}}],
           "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"type": "string"}}}}}}}},
         "components": {"schemas": {"Order": {"type": "string", "enum": ["new", "old"], "default": "new"}}}}
        """#
        let workspace = try TemporaryWorkspace(files: ["fastapi.json": document])
        defer { workspace.remove() }
        let (manifest, _) = try Self.importAndLint(workspace.root.appendingPathComponent("fastapi.json").path)
        #expect(manifest.contains("      limit:\n        type: Int\n        default: 10\n"), "\(manifest)")
        #expect(manifest.contains("      q:\n        type: String\n        default: all\n"), "\(manifest)")
        #expect(manifest.contains("      sort:\n        type: ReadItemsItemsGetSort\n        default: desc\n"), "\(manifest)")
        #expect(manifest.contains("      xDryRun:\n        type: Bool\n        in: header\n        name: x-dry-run\n        default: false\n"), "\(manifest)")
        #expect(manifest.contains("      page: Int?\n"), "\(manifest)")
        #expect(manifest.contains("      order:\n        type: Order\n        default: new\n"), "\(manifest)")
        #expect(manifest.contains("      owner: String\n"), "\(manifest)")
    }

    @Test("A default beside a $ref (FastAPI's `priority: Priority = 5`, pydantic 2's form and pydantic 1's allOf, a parameter of components too) is kept, the field no longer optional; a null one is none")
    func referenceDefaults() throws {
        let document = #"""
        {"openapi": "3.1.0", "info": {"title": "FastAPI", "version": "0.1.0"},
         "paths": {"/tasks/": {"post": {"operationId": "create_task", "parameters": [
           {"name": "level", "in": "query", "required": false, "schema": {"$ref": "#/components/schemas/Priority", "default": 3}},
           {"$ref": "#/components/parameters/Urgency"},
           {"name": "owner", "in": "query", "required": false, "schema": {"$ref": "#/components/schemas/Color", "default": null}}],
           "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Task"}}}},
           "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Task"}}}}}}}},
         "components": {
          "parameters": {"Urgency": {"name": "urgency", "in": "query", "required": false, "schema": {"$ref": "#/components/schemas/Priority", "default": 4}}},
          "schemas": {
           "Priority": {"type": "integer", "enum": [1, 2, 3, 4, 5], "title": "Priority"},
           "Color": {"type": "string", "enum": ["red", "blue"], "title": "Color"},
           "Task": {"type": "object", "required": ["title"], "properties": {
             "title": {"type": "string"},
             "priority": {"$ref": "#/components/schemas/Priority", "default": 5},
             "color": {"allOf": [{"$ref": "#/components/schemas/Color"}], "default": "blue"},
             "weight": {"$ref": "#/components/schemas/Priority", "default": 9}}}}}}
        """#
        let manifest = try Self.imported(document)
        // An enum's default is its raw value, written as text.
        #expect(manifest.contains("      priority:\n        type: Priority\n        default: \"5\"\n"), "\(manifest)")
        #expect(manifest.contains("      color:\n        type: Color\n        default: blue\n"), "\(manifest)")
        // A default that is not one of the enum's values is not kept.
        #expect(manifest.contains("      weight: Priority?\n"), "\(manifest)")
        #expect(manifest.contains("      level:\n        type: Priority\n        default: \"3\"\n"), "\(manifest)")
        #expect(manifest.contains("      urgency:\n        type: Priority\n        default: \"4\"\n"), "\(manifest)")
        #expect(manifest.contains("      owner: Color?\n"), "\(manifest)")
    }

    @Test("Decimal numbers: a number of format decimal is a Decimal; one written as text (format decimal, or a pattern of digits and one point) is a String with a warning at its pointer")
    func decimalFormats() throws {
        let document = #"""
        {"openapi": "3.1.0", "info": {"title": "Money", "version": "1"},
         "paths": {"/price": {"get": {"operationId": "getPrice", "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Price"}}}}}}}},
         "components": {"schemas": {"Price": {"type": "object", "required": ["amount", "amountText", "rate", "phone"], "properties": {
           "amount": {"type": "number", "format": "decimal"},
           "amountText": {"type": "string", "format": "decimal"},
           "rate": {"type": "string", "pattern": "^-?\\d+(\\.\\d+)?$"},
           "phone": {"type": "string", "pattern": "^\\d{3}\\.\\d{3}\\.\\d{4}$"}}}}}}
        """#
        let workspace = try TemporaryWorkspace(files: ["money.json": document])
        defer { workspace.remove() }
        let (manifest, diagnostics) = try Self.importAndLint(workspace.root.appendingPathComponent("money.json").path)
        #expect(manifest.contains("      amount: Decimal\n      amountText: String\n      rate: String\n      phone: String\n"), "\(manifest)")
        let warnings = diagnostics.map(\.message).filter { $0.contains("decimal number written as text") }
        #expect(warnings.map { String($0.prefix { $0 != ":" }) } == ["#/components/schemas/Price/properties/amountText", "#/components/schemas/Price/properties/rate"])
    }

    @Test("Server URLs that could not be base URLs (a password, a fragment, a bad port) are left out with a warning that does not repeat them")
    func unfitServerURLs() throws {
        let document = #"""
        {"openapi": "3.0.3", "info": {"title": "Servers", "version": "1"},
         "servers": [{"url": "https://deploy:hunter2@api.example.com/v1"}],
         "paths": {
           "/a": {"servers": [{"url": "https://api.example.com:70000"}],
                  "get": {"operationId": "getA", "responses": {"204": {"description": "none"}}},
                  "put": {"operationId": "putA", "responses": {"204": {"description": "none"}}}},
           "/b": {"get": {"operationId": "getB", "servers": [{"url": "https://api.example.com/v1#frag"}], "responses": {"204": {"description": "none"}}}},
           "/c": {"get": {"operationId": "getC", "servers": [{"url": "https://c.example.com/v2"}], "responses": {"204": {"description": "none"}}}}}}
        """#
        let workspace = try TemporaryWorkspace(files: ["servers.json": document])
        defer { workspace.remove() }
        let file = workspace.root.appendingPathComponent("servers.json").path
        let result = OpenAPIImporter.importDocument(at: file)
        #expect(result.baseURL == nil)
        let (manifest, diagnostics) = try Self.importAndLint(file)
        #expect(!manifest.contains("api.example.com"), "\(manifest)")
        #expect(manifest.contains("baseURL: https://c.example.com/v2"), "\(manifest)")
        #expect(diagnostics.map(\.message) == [
            "#/servers/0/url: the server URL carries a user name or password ('user:password@'): credentials in a URL end up in logs; send them with an authentication interceptor or a header; it is left out: set the workspace's 'defaults: baseURL:' yourself",
            "#/paths/~1a/servers/0/url: the server URL has the port '70000'; a port is a number from 1 to 65535; it is left out: set the workspace's 'defaults: baseURL:' yourself",
            "#/paths/~1b/get/servers/0/url: the server URL has a '#fragment', which never reaches the server: every call would go to the base path; it is left out: set the workspace's 'defaults: baseURL:' yourself",
        ])
        #expect(!diagnostics.map(\.message).joined().contains("hunter2"))
    }

    @Test("Swagger 2.0, another version, and text that is not a document are refused by name")
    func notOpenAPI3() throws {
        let workspace = try TemporaryWorkspace(files: [
            "swagger.yaml": "swagger: '2.0'\ninfo: { title: t, version: '1' }\npaths: {}\n",
            "future.json": #"{"openapi": "4.0.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#,
            "list.yaml": "- a\n- b\n",
        ])
        defer { workspace.remove() }
        let messages = ["swagger.yaml", "future.json", "list.yaml"].map { name in
            OpenAPIImporter.importDocument(at: workspace.root.appendingPathComponent(name).path).diagnostics.errors.map(\.message).joined()
        }
        #expect(messages[0].contains("Swagger 2.0 is not supported"))
        #expect(messages[1].contains("OpenAPI 4.0.0 is not supported"))
        #expect(messages[2].contains("not an OpenAPI document"))
    }

    @Test("Enums, unions with a discriminator, allOf, inline objects, forms, files, streams and security, each as a manifest says it or as a warning")
    func wholeVocabulary() throws {
        let workspace = try TemporaryWorkspace(files: ["shop.yaml": Self.shop])
        defer { workspace.remove() }
        let file = workspace.root.appendingPathComponent("shop.yaml").path
        let (manifest, diagnostics) = try Self.importAndLint(file)
        let lines = Set(manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for expected in [
            "enum: [available, sold-out]",              // string enum, case names from the values
            "plus1: \"+1\"", "minus1: \"-1\"",           // values that make the same Swift name
            "value1: 1",                                 // integer enum
            "debug: 0", "error: 10",                     // case names from x-enum-varnames
            "oneOf: [CatType, Dog]", "discriminator: kind",
            "cat_type: CatType",                         // mapping written: the schema keys differ from the names
            "createdAt:", "json: created_at",            // member names in lower camel case
            "type: Date", "born: CalendarDate?",
            "body: multipart", "photo: File", "body: form",
            "response: {events: String}",
            "skipInterceptors: [authentication]",
            "path: /api/v2/pets/{petId}",               // the relative server's path, the placeholder renamed
            "404: Problem",
            "body: Named", "response: Named",           // the success with a body, though 200 has none
            "ListPetsResponseItem:",                      // an inline object named after where it is
        ] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "\(expected)\n\(manifest)")
        }
        let warnings = diagnostics.map(\.message)
        #expect(!warnings.contains { $0.contains("minProperties") }, "required members are not a minimum to report")
        for expected in [
            "#/paths/~1pets/get/parameters/1: cookie parameters are not supported",
            "#/paths/~1pets/options: OPTIONS is not a method",
            "#/paths/~1pets~1{pet-id}/put/parameters/1/content: parameter 'filter' is described by 'content'",
            "#/components/securitySchemes/key: the API key scheme",
            "#/paths/~1pets/get/responses/5XX: a range of statuses",
            "#/servers/0/url: the server URL '/api/v2' is relative",
            "#/components/schemas/Named/properties/name: 'maxLength' has no equivalent",
        ] {
            #expect(warnings.contains { $0.hasPrefix(expected) }, "\(expected)\n\(warnings)")
        }
    }

    @Test("Import, export and import again give the same APIs and types")
    func roundTrip() throws {
        let first = OpenAPIImporter.importDocument(at: Self.documents.appendingPathComponent("petstore.yaml").path)
        let workspace = try TemporaryWorkspace(api: try #require(first.manifest))
        defer { workspace.remove() }
        var diagnostics = Diagnostics()
        let (loaded, description) = try #require(Generator.describe(workspaceFile: workspace.workspaceFile, into: &diagnostics))
        let exported = try #require(OpenAPIExporter.export(loaded, description).document)
        try workspace.write("exported.json", String(decoding: exported, as: UTF8.self))
        let second = OpenAPIImporter.importDocument(at: workspace.root.appendingPathComponent("exported.json").path)
        // The export's keys are sorted, so the second import lists the same entries in another order.
        func entries(_ manifest: String?) throws -> Data {
            let text = try #require(manifest)
            let value = try #require(try Yams.load(yaml: text))
            return try JSONSerialization.data(withJSONObject: value, options: .sortedKeys)
        }
        #expect(try entries(second.manifest) == entries(first.manifest))
    }

    static let shop = """
        openapi: 3.1.0
        info: { title: Shop, version: "2" }
        servers: [{ url: /api/v2 }]
        security: [{ bearer: [] }]
        paths:
          /pets:
            get:
              operationId: listPets
              parameters:
                - { name: status, in: query, schema: { $ref: '#/components/schemas/Status' } }
                - { name: session, in: cookie, schema: { type: string } }
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: array
                        items: { type: object, properties: { id: { type: integer } }, required: [id] }
                5XX: { description: down }
            post:
              operationId: addPet
              requestBody:
                content:
                  multipart/form-data:
                    schema:
                      type: object
                      properties:
                        photo: { type: string, format: binary }
                        name: { type: string }
                      required: [photo]
              responses:
                '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
            options:
              responses: { '200': { description: ok } }
          /pets/{pet-id}:
            get:
              operationId: get-pet
              security: []
              parameters:
                - { name: pet-id, in: path, required: true, schema: { type: integer, format: int64 } }
              responses:
                '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Animal' } } } }
                '404': { description: gone, content: { application/problem+json: { schema: { $ref: '#/components/schemas/Problem' } } } }
            put:
              operationId: renamePet
              parameters:
                - { name: pet-id, in: path, required: true, schema: { type: integer } }
                - { name: filter, in: query, content: { application/json: { schema: { type: object } } } }
              requestBody:
                content: { application/json: { schema: { $ref: '#/components/schemas/Named' } } }
              responses:
                '200': { description: unchanged }
                '201': { description: renamed, content: { application/json: { schema: { $ref: '#/components/schemas/Named' } } } }
          /login:
            post:
              operationId: login
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    schema: { type: object, properties: { user: { type: string } , remember: { type: boolean } } }
              responses:
                '204': { description: signed in }
          /events:
            get:
              operationId: watch
              responses:
                '200': { description: events, content: { text/event-stream: { schema: { type: string } } } }
        components:
          securitySchemes:
            bearer: { type: http, scheme: bearer }
            key: { type: apiKey, name: X-Key, in: header }
          schemas:
            Status: { type: string, enum: [available, sold-out] }
            Vote: { type: string, enum: ['+1', '-1'] }
            Size: { type: integer, enum: [1, 2, 3] }
            Level: { type: integer, enum: [0, 10], x-enum-varnames: [Debug, Error] }
            Pet:
              allOf:
                - $ref: '#/components/schemas/Named'
                - type: object
                  required: [created_at]
                  properties:
                    created_at: { type: string, format: date-time }
                    born: { type: [string, 'null'], format: date }
                    status: { $ref: '#/components/schemas/Status' }
                    vote: { $ref: '#/components/schemas/Vote' }
                    size: { $ref: '#/components/schemas/Size' }
                    level: { $ref: '#/components/schemas/Level' }
            Named:
              type: object
              required: [name]
              properties: { name: { type: string, maxLength: 40 } }
            Animal:
              oneOf: [{ $ref: '#/components/schemas/cat_type' }, { $ref: '#/components/schemas/Dog' }]
              discriminator: { propertyName: kind }
            cat_type:
              type: object
              required: [kind]
              properties: { kind: { type: string }, lives: { type: integer } }
            Dog:
              type: object
              required: [kind]
              properties: { kind: { type: string }, good: { type: boolean } }
            Problem:
              type: object
              properties: { title: { type: string }, status: { type: integer } }
        """
}
