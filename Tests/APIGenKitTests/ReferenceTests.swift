import APIGenKit
import APIManifest
import Foundation
import Testing

/// Generated output compared byte for byte with committed files. To accept a deliberate change:
/// `swift run apigen -w Tests/Fixtures/Reference/apis/workspace.yaml` and commit the result.
@Suite("Reference output", .ownThread)
struct ReferenceTests {
    @Test("The reference workspace generates exactly Tests/Fixtures/Reference/Expected")
    func referenceWorkspace() throws {
        try expectUpToDate(workspace: "Tests/Fixtures/Reference/apis/workspace.yaml", files: 11)
    }

    /// Its gRPC messages come from the committed record of their protos: no protoc needed.
    @Test("The example workspace in apis/ matches the committed Sources/ExampleClient/Generated")
    func exampleWorkspace() throws {
        try expectUpToDate(workspace: "apis/workspace.yaml", files: 49)
    }

    @Test("The hostile, shadowing and init fixtures match their committed output")
    func otherFixtures() throws {
        try expectUpToDate(workspace: "Tests/Fixtures/Hostile/apis/workspace.yaml", files: 6)
        try expectUpToDate(workspace: "Tests/Fixtures/Shadowing/apis/workspace.yaml", files: 10)
        try expectUpToDate(workspace: "Tests/Fixtures/Init/apis/workspace.yaml", files: 3)
    }

    @Test("The built-in templates are the ones in templates/")
    func builtinTemplatesMatchFolder() throws {
        let templates = TemplateSet.builtinSources
        #expect(Set(templates.keys) == Set(TemplateSet.names))
        for (name, text) in templates {
            let file = repositoryRoot.appendingPathComponent("templates/\(name).mustache")
            let onDisk = try String(contentsOf: file, encoding: .utf8)
            #expect(onDisk == text, "templates/\(name).mustache differs from the built-in copy: run 'make builtin-templates'")
        }
    }

    private func expectUpToDate(workspace: String, files: Int) throws {
        let report = Generator.run(workspaceFile: repositoryRoot.appendingPathComponent(workspace).path, mode: .check)
        #expect(report.diagnostics.errors.isEmpty, "\(report.diagnostics.all)")
        #expect(report.plan.unchanged.count == files)
        #expect(report.plan.stale.isEmpty, "stale files: \(report.plan.stale)")
        for file in report.plan.changed {
            let committed = (try? String(contentsOf: report.outputDirectory!.appendingPathComponent(file.path), encoding: .utf8)) ?? ""
            Issue.record("\(file.path) differs from its committed copy; first difference: \(firstDifference(committed, file.contents))")
        }
    }

    private func firstDifference(_ old: String, _ new: String) -> String {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(oldLines.count, newLines.count) {
            let a = index < oldLines.count ? String(oldLines[index]) : "<end>"
            let b = index < newLines.count ? String(newLines[index]) : "<end>"
            if a != b { return "line \(index + 1): committed '\(a)', generated '\(b)'" }
        }
        return "none"
    }
}
