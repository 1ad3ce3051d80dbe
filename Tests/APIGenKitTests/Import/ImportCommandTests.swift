import Foundation
import Testing

/// `apigen import openapi` run as the built binary: what it writes, and that a document it
/// refuses leaves the workspace as it was.
@Suite("apigen import openapi", .ownThread)
struct ImportCommandTests {
    static let petstore = OpenAPIImportTests.documents.appendingPathComponent("petstore.yaml").path

    @Test("Into a folder without a workspace: the API file and a workspace file with the document's server, which generates")
    func newWorkspace() throws {
        let workspace = try TemporaryWorkspace(files: ["README.md": "An app's package.\n"])
        defer { workspace.remove() }
        let result = try APIGenBinary.run(["import", "openapi", Self.petstore], in: workspace.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "apigen: imported 3 APIs and 2 types into apis/petstore.yaml and apis/workspace.yaml, 0 warnings\n")
        #expect(workspace.read("apis/workspace.yaml")?.contains("module: SwaggerPetstoreClient\n") == true)
        #expect(workspace.read("apis/workspace.yaml")?.contains("baseURL: http://petstore.swagger.io/v1\n") == true)
        let generate = try APIGenBinary.run(["-q"], in: workspace.root)
        #expect(generate.status == 0, "\(generate.stderr)")
        #expect(workspace.read("Sources/SwaggerPetstoreClient/Generated/petstore/ListPetsAPI.swift") != nil)
    }

    @Test("An existing API file is kept unless --force; a workspace with another base URL gets one per API")
    func existingFiles() throws {
        let workspace = try TemporaryWorkspace(files: [
            "apis/workspace.yaml": TemporaryWorkspace.defaultWorkspaceFile,
            "apis/petstore.yaml": "apis: {}\n",
        ])
        defer { workspace.remove() }
        let refused = try APIGenBinary.run(["import", "openapi", Self.petstore], in: workspace.root)
        #expect(refused.status == 1)
        #expect(refused.stderr == "apigen: apis/petstore.yaml exists; pass --force to replace it\n")
        #expect(workspace.read("apis/petstore.yaml") == "apis: {}\n")

        let forced = try APIGenBinary.run(["import", "openapi", "--force", Self.petstore], in: workspace.root)
        #expect(forced.status == 0, "\(forced.stderr)")
        let manifest = try #require(workspace.read("apis/petstore.yaml"))
        #expect(manifest.components(separatedBy: "baseURL: http://petstore.swagger.io/v1\n").count == 4)
    }

    @Test("Hostile YAML gets the manifest reader's limits: an alias bomb, nesting past 200 levels, a syntax error at its line", .timeLimit(.minutes(2)))
    func hostileYAML() throws {
        // Nine levels of ten aliases each: a billion nodes once expanded, in a few hundred bytes.
        var bomb = "openapi: 3.1.0\ninfo: { title: t, version: '1' }\nx-a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 {
            let previous = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(level - 1)))
            let name = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(level)))
            bomb += "x-\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        bomb += "paths: {}\n"
        let deep = "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths: {}\nx-deep: " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "\n"
        let broken = "openapi: 3.1.0\ninfo:\n  title: t\n  version: '1'\npaths:\n  /a: { get: [ }\n"
        let workspace = try TemporaryWorkspace(files: ["bomb.yaml": bomb, "deep.yaml": deep, "broken.yaml": broken])
        defer { workspace.remove() }

        let expectations = [
            ("bomb.yaml", "bomb.yaml:1:1: error: the YAML expands to more than 4096 nodes through its aliases"),
            ("deep.yaml", "deep.yaml:4:209: error: nesting deeper than 200 levels; an OpenAPI document needs far fewer\n"),
            ("broken.yaml", "broken.yaml:6:"),
        ]
        for (name, prefix) in expectations {
            let result = try APIGenBinary.run(["import", "openapi", name], in: workspace.root)
            #expect(result.status == 1, "\(name)")
            #expect(result.stderr.hasPrefix(prefix), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("apis").path))
        }
    }

    @Test("A short alias ladder that stays under a million nodes is refused at once, in proportion to its size", .timeLimit(.minutes(2)))
    func shortAliasLadder() throws {
        // 350 bytes naming about 300,000 nodes: past the 4,096 any short text may have.
        var ladder = "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths: {}\nx-l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...4 {
            ladder += "x-l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ",") + "]\n"
        }
        ladder += "x-top: [*l4, *l4, *l4]\n"
        #expect(ladder.utf8.count <= 350)
        let workspace = try TemporaryWorkspace(files: ["ladder.yaml": ladder])
        defer { workspace.remove() }
        let result = try APIGenBinary.run(["import", "openapi", "ladder.yaml"], in: workspace.root)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("ladder.yaml:1:1: error: the YAML expands to more than 4096 nodes through its aliases"), "\(result.stderr)")
    }

    @Test("A document that is not valid: exit 1, the error at its line, nothing written")
    func invalidDocument() throws {
        let workspace = try TemporaryWorkspace(files: ["broken.yaml": "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200': 42\n"])
        defer { workspace.remove() }
        let result = try APIGenBinary.run(["import", "openapi", "broken.yaml"], in: workspace.root)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("broken.yaml:7:16: error: #/paths/~1a/get/responses/200: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("apigen: the document could not be imported (errors above); nothing was written\n"))
        #expect(!FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("apis").path))
    }
}
