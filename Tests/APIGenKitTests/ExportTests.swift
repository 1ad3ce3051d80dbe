@testable import APIGenKit
import APIManifest
import Foundation
import Testing

/// `apigen export openapi` over the example workspace; `make check` also runs the document
/// through openapi-spec-validator.
@Suite("OpenAPI export", .ownThread)
struct ExportTests {
    static func exported() throws -> [String: Any] {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: "apis/workspace.yaml", into: &diagnostics)
        let (workspace, description) = try #require(described, "\(diagnostics.all)")
        let export = OpenAPIExporter.export(workspace, description)
        #expect(export.diagnostics.isEmpty)
        return try json(export)
    }

    /// The exported document, read back.
    static func json(_ export: ExportedDocument) throws -> [String: Any] {
        let data = try #require(export.document, "\(export.diagnostics)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("REST APIs become operations with their parameters, bodies, replies and declared errors; JSON-RPC and gRPC APIs are left out")
    func operations() throws {
        let document = try Self.exported()
        #expect(document["openapi"] as? String == "3.1.0")
        #expect((document["servers"] as? [[String: String]])?.first?["url"] == "https://api.example.com/v1")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let getUser = try #require(paths["/users/{id}"]?["get"] as? [String: Any])
        #expect(getUser["operationId"] as? String == "GetUser")
        let parameter = try #require((getUser["parameters"] as? [[String: Any]])?.first)
        #expect(parameter["name"] as? String == "id" && parameter["in"] as? String == "path" && parameter["required"] as? Bool == true)

        let update = try #require(paths["/users/{id}"]?["patch"] as? [String: Any])
        let responses = try #require(update["responses"] as? [String: Any])
        #expect(Set(responses.keys) == ["200", "422", "default"])
        let headers = try #require((responses["200"] as? [String: Any])?["headers"] as? [String: Any])
        #expect(headers.keys.contains("ETag"))

        let list = try #require(paths["/invoices"]?["get"] as? [String: Any])
        let since = try #require((list["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "since" })
        #expect(since["required"] as? Bool == false && (since["schema"] as? [String: Any])?["type"] as? String == "number")
        #expect(!paths.keys.contains("/jsonrpc") && !paths.keys.contains { $0.contains("helloworld") })
    }

    @Test("Types become schemas: required fields, Unix times, calendar dates, defaults, enums, unions, kept members")
    func schemas() throws {
        let schemas = try #require((try Self.exported()["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let invoice = try #require(schemas["Invoice"])
        let properties = try #require(invoice["properties"] as? [String: [String: Any]])
        #expect(properties["due"]?["format"] as? String == "date")
        #expect(properties["issued_at"]?["type"] as? String == "number")
        #expect(properties["status"]?["default"] as? String == "draft")
        #expect(properties["total"]?["$ref"] as? String == "#/components/schemas/Money")
        #expect(invoice["additionalProperties"] as? Bool == true)
        #expect(Set(invoice["required"] as? [String] ?? []) == ["number", "total", "tax", "discount", "due", "issued_at", "lines"])
        #expect(schemas["InvoiceStatus"]?["enum"] as? [String] == ["draft", "open", "paid", "void"])
        let payment = try #require(schemas["PaymentMethod"])
        #expect((payment["oneOf"] as? [[String: String]])?.map { $0["$ref"] } == ["#/components/schemas/Card", "#/components/schemas/BankTransfer"])
        #expect((payment["discriminator"] as? [String: Any])?["propertyName"] as? String == "type")
    }

    @Test("JSON-RPC APIs become OpenRPC methods: parameters in order, a result unless a notification, one method per remote name")
    func openRPC() throws {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: "Tests/Fixtures/Reference/apis/workspace.yaml", into: &diagnostics)
        let (workspace, description) = try #require(described, "\(diagnostics.all)")
        let export = OpenRPCExporter.export(workspace, description)
        let document = try ExportTests.json(export)
        #expect(document["openrpc"] as? String == "1.3.2")
        let methods = try #require(document["methods"] as? [[String: Any]])
        let move = try #require(methods.first { $0["name"] as? String == "catalog.move" })
        #expect(move["paramStructure"] as? String == "by-position")
        let params = try #require(move["params"] as? [[String: Any]])
        #expect(params.map { $0["name"] as? String } == ["item", "target", "default"])
        // By position a nil is sent as null, so the parameter is there, and may be null.
        #expect(params[1]["required"] as? Bool == true)
        #expect((params[1]["schema"] as? [String: Any])?["type"] as? [String] == ["string", "null"])
        #expect(move["result"] != nil)
    }

    @Test("An RPC method two APIs call is described once, with a note naming the one left out")
    func openRPCDuplicateMethod() throws {
        let workspace = try TemporaryWorkspace(api: """
            apis:
              Subtract:
                kind: jsonrpc
                url: /rpc
                method: subtract
                params: byPosition
                parameters: [{ a: Int }, { b: Int }]
                response: Int
              SubtractNamed:
                kind: jsonrpc
                url: /rpc
                method: subtract
                parameters: { a: Int, b: "Int?" }
                response: Int
              Ping:
                kind: jsonrpc
                url: https://other.example.com/rpc
                method: ping
                notification: true
                parameters: { note: "String?", at: Int }
            """)
        defer { workspace.remove() }
        var diagnostics = Diagnostics()
        let (loaded, description) = try #require(Generator.describe(workspaceFile: workspace.workspaceFile, into: &diagnostics))
        let export = OpenRPCExporter.export(loaded, description)
        #expect(export.diagnostics.map(\.message) == ["'SubtractNamed' calls 'subtract' as 'Subtract' does; an OpenRPC document names a method once, so it describes 'Subtract'"])
        let document = try ExportTests.json(export)
        #expect((document["servers"] as? [[String: String]])?.first?["url"] == "https://example.com/rpc")
        let methods = try #require(document["methods"] as? [[String: Any]])
        #expect(methods.map { $0["name"] as? String } == ["subtract", "ping"])
        let ping = methods[1]
        #expect(ping["result"] == nil)
        #expect((ping["servers"] as? [[String: String]])?.first?["url"] == "https://other.example.com/rpc")
        // By name, the required parameters come first and a nil one is not required.
        let params = try #require(ping["params"] as? [[String: Any]])
        #expect(params.map { $0["name"] as? String } == ["at", "note"])
        #expect(params.map { $0["required"] as? Bool } == [true, false])
    }
}

/// An export is a valid document or an error that names what kept it from being one.
@Suite("Export validity", .ownThread)
struct ExportValidityTests {
    @Test("Paths are written from '/', as the runtime sends them; a path that is a whole URL is a lint error")
    func pathsFromTheRoot() throws {
        let workspace = try TemporaryWorkspace(api: """
            apis:
              GetUser:
                method: GET
                path: users/{id}
                parameters: { id: Int }
              Root:
                method: GET
                path: ''
            """)
        defer { workspace.remove() }
        var diagnostics = Diagnostics()
        let (loaded, description) = try #require(Generator.describe(workspaceFile: workspace.workspaceFile, into: &diagnostics))
        let export = OpenAPIExporter.export(loaded, description)
        let document = try ExportTests.json(export)
        #expect(Set((document["paths"] as? [String: Any])?.keys ?? [:].keys) == ["/users/{id}", "/"])

        try workspace.write("apis/api.yaml", "apis:\n  Other:\n    method: GET\n    path: https://other.example.com/users\n")
        var errors = Diagnostics()
        _ = Generator.describe(workspaceFile: workspace.workspaceFile, into: &errors)
        #expect(errors.errors.map(\.message) == [
            "path 'https://other.example.com/users' is a whole URL, but every call appends its path to the base URL; put the scheme and host in 'baseURL:' and the path here",
        ])
    }

    @Test("Two APIs with one method and path (placeholders named apart) are an error naming both; apigen exits 1 and writes nothing")
    func clashingOperations() throws {
        let workspace = try TemporaryWorkspace(api: """
            apis:
              GetUser:
                method: GET
                path: /users/{id}
                parameters: { id: Int }
              GetUserRaw:
                method: GET
                path: users/{userID}
                parameters: { userID: Int }
                response: bytes
              DeleteUser:
                method: DELETE
                path: /users/{id}
                parameters: { id: Int }
            """)
        defer { workspace.remove() }
        var diagnostics = Diagnostics()
        let (loaded, description) = try #require(Generator.describe(workspaceFile: workspace.workspaceFile, into: &diagnostics))
        let export = OpenAPIExporter.export(loaded, description)
        #expect(export.document == nil)
        let prefix = workspace.root.path + "/"
        #expect(export.diagnostics.map { $0.description.replacingOccurrences(of: prefix, with: "") } == [
            "apis/api.yaml:6:3: error: 'GetUserRaw' is GET /users/{userID}, as 'GetUser' at apis/api.yaml:2:3 is; an OpenAPI document has one operation per method and path, so it cannot describe both",
        ])

        let output = workspace.root.appendingPathComponent("openapi.json")
        let run = try APIGenBinary.run(["export", "openapi", "-w", workspace.workspaceFile, "-o", output.path], in: workspace.root)
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: 'GetUserRaw' is GET /users/{userID}"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("A method named rpc.… is left out of an OpenRPC document with a note; the rest is exported")
    func reservedRPCNames() throws {
        let workspace = try TemporaryWorkspace(api: """
            apis:
              Discover:
                kind: jsonrpc
                url: /rpc
                method: rpc.discover
                response: JSON
              Add:
                kind: jsonrpc
                url: /rpc
                method: add
                parameters: { a: Int, b: Int }
                response: Int
            """)
        defer { workspace.remove() }
        var diagnostics = Diagnostics()
        let (loaded, description) = try #require(Generator.describe(workspaceFile: workspace.workspaceFile, into: &diagnostics))
        let export = OpenRPCExporter.export(loaded, description)
        #expect(export.diagnostics.map(\.message) == [
            "'Discover' calls 'rpc.discover', a name JSON-RPC reserves for the protocol's own methods; an OpenRPC document does not describe those, so it is left out",
        ])
        let document = try ExportTests.json(export)
        #expect((document["methods"] as? [[String: Any]])?.map { $0["name"] as? String } == ["add"])
    }

    @Test("An object that is not JSON is an error at the workspace file, never an empty document")
    func unserializable() {
        let export = ExportedDocument.serializing(["number": Double.nan], diagnostics: [], at: .file("apis/workspace.yaml"))
        #expect(export.document == nil)
        #expect(export.diagnostics.map(\.description) == ["apis/workspace.yaml:1:1: error: the document could not be written as JSON"])
    }
}
