import APIGenKit
import Foundation
import Testing

/// Models' fields are `let` unless the model (`mutable:`) or the workspace (`mutableModels:`)
/// asks for `var`: a `var` costs each field a setter and a `modify` accessor to compile.
@Suite("Model mutability")
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

    @Test("By default fields are let; mutable: true makes a model's fields var")
    func defaultIsLet() throws {
        let text = try Self.models(workspace: TemporaryWorkspace.defaultWorkspaceFile)
        #expect(text.contains("    public let a: Int\n"))
        #expect(text.contains("    public var b: Int\n"))
        #expect(text.contains("    public let c: Int\n"))
    }

    @Test("mutableModels: true makes every model's fields var, except where a model says false")
    func workspaceWide() throws {
        let text = try Self.models(workspace: TemporaryWorkspace.defaultWorkspaceFile + "\nmutableModels: true\n")
        #expect(text.contains("    public var a: Int\n"))
        #expect(text.contains("    public var b: Int\n"))
        #expect(text.contains("    public let c: Int\n"))
    }
}
