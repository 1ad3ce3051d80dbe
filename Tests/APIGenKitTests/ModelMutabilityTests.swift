import APIGenKit
import Foundation
import Testing

/// Models' fields are `var`, so a fetched value can be edited and sent back, unless the model
/// (`mutable: false`) or the workspace (`mutableModels: false`) asks for `let`.
@Suite("Model mutability", .ownThread)
struct ModelMutabilityTests {
    static let types = """
        types:
          Plain:
            fields: { a: Int }
          Editable:
            mutable: true
            fields: { b: Int }
          Fixed:
            mutable: false
            fields: { c: Int }
        """

    static func models(workspace: String) throws -> String {
        let temporary = try TemporaryWorkspace(api: types, workspace: workspace)
        defer { temporary.remove() }
        let result = Generator.run(workspaceFile: temporary.workspaceFile, mode: .write)
        #expect(result.succeeded)
        return try #require(temporary.read("Generated/api/api.models.swift"))
    }

    @Test("By default fields are var; mutable: false makes a model's fields let")
    func defaultIsVar() throws {
        let text = try Self.models(workspace: TemporaryWorkspace.defaultWorkspaceFile)
        #expect(text.contains("    public var a: Int\n"))
        #expect(text.contains("    public var b: Int\n"))
        #expect(text.contains("    public let c: Int\n"))
    }

    @Test("mutableModels: false makes every model's fields let, except where a model says true")
    func workspaceWide() throws {
        let text = try Self.models(workspace: TemporaryWorkspace.defaultWorkspaceFile + "\nmutableModels: false\n")
        #expect(text.contains("    public let a: Int\n"))
        #expect(text.contains("    public var b: Int\n"))
        #expect(text.contains("    public let c: Int\n"))
    }
}
