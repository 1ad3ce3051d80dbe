import APIGenKit
import Foundation
import Testing

/// What a reviewer reads in generated code: where each declaration comes from, samples kept out
/// of release builds, no backticks or coding keys Swift does not need.
@Suite("The shape of generated code", .ownThread)
struct GeneratedCodeShapeTests {
    static let manifest = """
        types:
          Invoice:
            fields:
              total: Int
              status: { type: Status, default: open }
          Stamped:
            fields:
              at: { type: Date, format: unixSeconds }
          Status:
            enum: [open, default, paid]
        apis:
          GetInvoice:
            method: GET
            path: /invoices/{id}
            parameters: { id: Int }
            response: Invoice
            sample: { body: { total: 3, status: paid } }
          Stamp:
            method: POST
            path: /stamps
            body: Stamped
        """

    static func generated() throws -> (api: String, stamp: String, models: String) {
        let workspace = try TemporaryWorkspace(api: manifest)
        defer { workspace.remove() }
        #expect(Generator.run(workspaceFile: workspace.workspaceFile, mode: .write).succeeded)
        return (
            try #require(workspace.read("Generated/api/GetInvoiceAPI.swift")),
            try #require(workspace.read("Generated/api/StampAPI.swift")),
            try #require(workspace.read("Generated/api/api.models.swift"))
        )
    }

    @Test("Each API and type says where it is declared, just above its doc comment")
    func declaredIn() throws {
        let (api, _, models) = try Self.generated()
        #expect(api.contains("// Declared in api.yaml as GetInvoice.\n/// `GET /invoices/{id}`\npublic nonisolated final class GetInvoiceAPI"))
        #expect(models.contains("// Declared in api.yaml as Invoice.\npublic nonisolated struct Invoice"))
        #expect(models.contains("// Declared in api.yaml as Status.\npublic nonisolated enum Status"))
    }

    @Test("A sample is compiled in debug builds only; the definition reads it from there")
    func sampleInDebugOnly() throws {
        let (api, stamp, _) = try Self.generated()
        #expect(api.contains("        sample: GetInvoiceAPI.sample,\n"))
        let debug = try #require(api.range(of: "    #if DEBUG\n"))
        let release = try #require(api.range(of: "    #else\n    // Samples stay out of release builds.\n    private static let sample: APIRuntime.StubResponse? = nil\n    #endif\n"))
        let json = try #require(api.range(of: #"json: "{\"status\":\"paid\",\"total\":3}""#))
        #expect(debug.upperBound <= json.lowerBound && json.upperBound <= release.lowerBound)
        #expect(!stamp.contains("sample"))
    }

    @Test("Fields are var; contextual keywords stay bare, keywords get backticks; coding keys only where Swift derives none")
    func noNeedlessSyntax() throws {
        let (_, _, models) = try Self.generated()
        #expect(models.contains("    public var total: Int\n"))
        #expect(models.contains("    case open\n") && models.contains("    case `default`\n"))
        // Invoice writes out only its decoding (a default), so Swift derives the coding keys;
        // Stamped writes out both halves (a Unix time), so they are spelled out.
        let invoice = try #require(models.range(of: "struct Invoice")).lowerBound
        let stamped = try #require(models.range(of: "struct Stamped")).lowerBound
        #expect(!models[invoice..<stamped].contains("enum CodingKeys"))
        #expect(models[stamped...].contains("enum CodingKeys: String, CodingKey {\n        case at\n    }"))
    }
}
