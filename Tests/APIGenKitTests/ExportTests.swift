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

    @Test(
        "REST APIs become operations with their parameters, bodies, replies and declared errors; JSON-RPC and gRPC APIs are left out",
        .enabled(if: Generator.grpcToolsMissing == nil, "the example's gRPC APIs need protoc")
    )
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

    @Test("Types become schemas: required fields, Unix times, calendar dates, defaults, enums, unions, kept members",
          .enabled(if: Generator.grpcToolsMissing == nil, "the example's gRPC APIs need protoc"))
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
}
