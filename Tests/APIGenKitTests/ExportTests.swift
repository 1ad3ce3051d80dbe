import APIGenKit
import APIManifest
import Foundation
import Testing

/// `apigen export openapi` over the example workspace; `make check` also runs the document
/// through openapi-spec-validator.
@Suite("OpenAPI export")
struct ExportTests {
    static func exported() throws -> [String: Any] {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: "apis/workspace.yaml", into: &diagnostics)
        let (workspace, description) = try #require(described, "\(diagnostics.all)")
        let data = OpenAPIExporter.document(workspace, description)
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
        let document = try #require(try JSONSerialization.jsonObject(with: export.document) as? [String: Any])
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
        #expect(export.notes.map(\.message) == ["'SubtractNamed' calls 'subtract' as 'Subtract' does; an OpenRPC document names a method once, so it describes 'Subtract'"])
        let document = try #require(try JSONSerialization.jsonObject(with: export.document) as? [String: Any])
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
