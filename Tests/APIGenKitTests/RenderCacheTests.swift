import APIGenKit
import Foundation
import Testing

/// The render cache lets a run skip rendering files left exactly as an earlier run wrote them;
/// anything else is rendered, and `check` never trusts it.
@Suite("Render cache", .ownThread)
struct RenderCacheTests {
    @Test("A re-run renders nothing; an edited manifest re-renders only what it changes")
    func rerun() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { workspace.remove() }
        let first = Generator.run(workspaceFile: workspace.workspaceFile, mode: .write)
        #expect(first.succeeded)
        #expect(first.renderedCount == 4)

        let again = Generator.run(workspaceFile: workspace.workspaceFile, mode: .write)
        #expect(again.renderedCount == 0)
        #expect(again.plan.unchanged.count == 4 && again.plan.isEmpty)

        try workspace.write("apis/api.yaml", WritingTests.twoAPIs.replacingOccurrences(of: "path: /things/{id}", with: "path: /things/{id}/v2"))
        let edited = Generator.run(workspaceFile: workspace.workspaceFile, mode: .write)
        #expect(edited.renderedCount == 1)
        #expect(edited.plan.changed.map(\.path) == ["api/GetThingAPI.swift"])
        #expect(workspace.read("Generated/api/GetThingAPI.swift")?.contains("/things/{id}/v2") == true)
    }

    @Test("A generated file changed by hand is rendered again and restored")
    func handEdit() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { workspace.remove() }
        #expect(Generator.run(workspaceFile: workspace.workspaceFile, mode: .write).succeeded)
        let path = "Generated/api/GetThingAPI.swift"
        let original = try #require(workspace.read(path))
        try workspace.write(path, original + "// a person's line\n")
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .write)
        #expect(report.renderedCount == 1)
        #expect(workspace.read(path) == original)
    }

    @Test("check trusts no cache: a hand edit that keeps the file's size and date is still stale")
    func checkIgnoresCache() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { workspace.remove() }
        #expect(Generator.run(workspaceFile: workspace.workspaceFile, mode: .write).succeeded)
        let url = workspace.root.appendingPathComponent("Generated/api/GetThingAPI.swift")
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "GetThing", with: "GetThinG")
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: url.path)
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .check)
        #expect(report.renderedCount == 4)
        #expect(report.plan.changed.map(\.path) == ["api/GetThingAPI.swift"])
    }

    @Test("Changed templates re-render every file")
    func templatesChange() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs, workspace: TemporaryWorkspace.defaultWorkspaceFile + "\ntemplates: ../templates\n")
        defer { workspace.remove() }
        try workspace.write("templates/extra.mustache", "unused partial\n")
        #expect(Generator.run(workspaceFile: workspace.workspaceFile, mode: .write).succeeded)
        try workspace.write("templates/extra.mustache", "another unused partial\n")
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .write)
        #expect(report.renderedCount == 4)
        #expect(report.plan.isEmpty)
    }
}
