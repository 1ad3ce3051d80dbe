import APIGenKit
import APIManifest
import Foundation
import Testing

/// `apigen lint`, `init`, `template` and `schema`, run as the built binary, and the plugins' tool.
@Suite("apigen commands", .ownThread)
struct CommandsTests {
    @Test("lint reports errors like generate, writes nothing, and summarizes a clean workspace")
    func lint() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { workspace.remove() }
        let clean = try APIGenBinary.run(["lint"], in: workspace.root)
        #expect(clean.status == 0)
        #expect(clean.stdout == "apigen: 2 APIs and 1 types in 2 files: no errors, 0 warnings\n")
        #expect(workspace.snapshot().isEmpty)

        try workspace.write("apis/api.yaml", WritingTests.twoAPIs + "\n    body: form\n    respons: x\n")
        let broken = try APIGenBinary.run(["lint"], in: workspace.root)
        #expect(broken.status == 1)
        #expect(broken.stderr == """
            apis/api.yaml:15:11: warning: 'body: form' has no effect: the API has no body parameters
            apis/api.yaml:16:5: error: unknown key 'respons' in API 'Ping' (did you mean 'response'?); expected one of: kind, description, method, path, baseURL, parameters, body, response, responses, responseHeaders, headers, timeout, frequency, retry, rateLimit, significantHeaders, tags, cache, invalidates, skipInterceptors, authenticated, sample

            """)
        #expect(workspace.snapshot().isEmpty)
    }

    @Test("The plugins' apigen-generate writes what apigen writes, checks and lints, and has no import command")
    func pluginTool() throws {
        let tool = try #require(APIGenBinary.url?.deletingLastPathComponent().appendingPathComponent("apigen-generate"))
        let ours = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        let theirs = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { ours.remove(); theirs.remove() }
        #expect(try APIGenBinary.run(["generate", "-q"], in: ours.root, executable: tool).status == 0)
        #expect(try APIGenBinary.run(["-q"], in: theirs.root).status == 0)
        #expect(!ours.snapshot().isEmpty)
        #expect(ours.snapshot().mapValues(\.contents) == theirs.snapshot().mapValues(\.contents))
        // As the build plugin runs it: the default command, the file-per-manifest layout.
        let plugin = ours.root.appendingPathComponent("plugin-output")
        let layout = try APIGenBinary.run(["--quiet", "--output", plugin.path, "--layout", "file-per-manifest"], in: ours.root, executable: tool)
        #expect(layout.status == 0, "\(layout.stderr)")
        #expect(FileManager.default.fileExists(atPath: plugin.appendingPathComponent("api.generated.swift").path))
        #expect(try APIGenBinary.run(["check"], in: ours.root, executable: tool).stdout.contains("generated code is up to date"))
        #expect(try APIGenBinary.run(["lint"], in: ours.root, executable: tool).status == 0)

        let imported = try APIGenBinary.run(["import", "openapi", "openapi.yaml"], in: ours.root, executable: tool)
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("import"), "\(imported.stderr)")
    }

    @Test("init scaffolds exactly the committed Tests/Fixtures/Init, which the package compiles as InitClient")
    func initScaffold() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apigen-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try APIGenBinary.run(["init", "--module", "InitClient", "--directory", folder.path], in: repositoryRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("generated 3 files"))

        let fixture = repositoryRoot.appendingPathComponent("Tests/Fixtures/Init")
        let expected = try files(under: fixture)
        #expect(expected.count == 5)
        #expect(try files(under: folder) == expected)

        let again = try APIGenBinary.run(["init", "--module", "InitClient", "--directory", folder.path], in: repositoryRoot)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists; apigen init starts new workspaces only"))

        let badName = try APIGenBinary.run(["init", "--module", "my-client", "--directory", folder.path + "/other"], in: repositoryRoot)
        #expect(badName.status == 1)
        #expect(badName.stderr.contains("'my-client' is not a valid Swift module name"))
    }

    @Test("template list names every built-in template; template cat prints one or suggests a name")
    func templates() throws {
        let list = try APIGenBinary.run(["template", "list"], in: repositoryRoot)
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) } == TemplateSet.names.map { "\($0).mustache" })

        let cat = try APIGenBinary.run(["template", "cat", "rpc.mustache"], in: repositoryRoot)
        #expect(cat.status == 0)
        #expect(cat.stdout == TemplateSet.builtinSources["rpc"])

        let typo = try APIGenBinary.run(["template", "cat", "modle"], in: repositoryRoot)
        #expect(typo.status == 1)
        #expect(typo.stderr == "apigen: no built-in template 'modle' (did you mean 'model'?); run 'apigen template list'\n")
    }

    @Test("--version prints the version alone")
    func version() throws {
        let result = try APIGenBinary.run(["--version"], in: repositoryRoot)
        #expect(result.status == 0)
        #expect(result.stdout == APIGenVersion.current + "\n")
    }

    @Test("serve and verify run the tools built beside apigen with their arguments, and exit as they do")
    func companionTools() throws {
        let verify = try APIGenBinary.run(["verify", "-w", "apis/workspace.yaml", "--api", "Nope"], in: repositoryRoot)
        #expect(verify.status == 1)
        #expect(verify.stderr == "error: --api names no API of the workspace: Nope\n")
        let serve = try APIGenBinary.run(["serve", "--fail-rate", "2"], in: repositoryRoot)
        #expect(serve.status == 64)
        #expect(serve.stderr.contains("--fail-rate is a share of requests, from 0 to 1; found 2.0"), "\(serve.stderr)")
    }

    @Test("schema prints the committed docs/manifest.schema.json")
    func schema() throws {
        let result = try APIGenBinary.run(["schema"], in: repositoryRoot)
        let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/manifest.schema.json"), encoding: .utf8)
        #expect(result.status == 0)
        #expect(result.stdout == committed, "docs/manifest.schema.json is stale: run 'swift run apigen schema > docs/manifest.schema.json'")
        #expect(result.stdout == ManifestSchema.text)
    }

    @Test("schema --markdown prints the committed docs/manifest-keys.md, the key tables made from the reader's own table")
    func keyTables() throws {
        let result = try APIGenBinary.run(["schema", "--markdown"], in: repositoryRoot)
        let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/manifest-keys.md"), encoding: .utf8)
        #expect(result.status == 0)
        #expect(result.stdout == committed, "docs/manifest-keys.md is stale: run 'make schema'")
        #expect(result.stdout == ManifestKeys.markdownPage)
    }

    @Test("Rendering reports its progress chunk by chunk, ending at the total")
    func progress() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { workspace.remove() }
        final class Calls: @unchecked Sendable {
            // Written only from the synchronous `Generator.run` below, on this one thread.
            var seen: [(Int, Int)] = []
        }
        let calls = Calls()
        _ = Generator.run(workspaceFile: workspace.workspaceFile, mode: .check) { calls.seen.append(($0, $1)) }
        #expect(calls.seen.map { [$0.0, $0.1] } == [[4, 4]])

        let large = try TemporaryWorkspace(api: AtomicWriteTests.manyAPIs(150, path: "/p"))
        defer { large.remove() }
        let chunks = Calls()
        _ = Generator.run(workspaceFile: large.workspaceFile, mode: .check) { chunks.seen.append(($0, $1)) }
        #expect(chunks.seen.map { [$0.0, $0.1] } == [[64, 151], [128, 151], [151, 151]])
    }

    /// Every file under `folder`, by relative path, with its text.
    private func files(under folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let base = folder.standardizedFileURL.path + "/"
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])! {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            result[String(url.standardizedFileURL.path.dropFirst(base.count))] = try String(contentsOf: url, encoding: .utf8)
        }
        return result
    }
}

@Suite("apigen on a terminal", .ownThread)
struct TerminalTests {
    @Test("On a terminal a large workspace shows a progress line, erased before the summary")
    func progressLine() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), let apigen = APIGenBinary.url else {
            Issue.record("needs util-linux's script(1) to give apigen a terminal")
            return
        }
        let workspace = try TemporaryWorkspace(api: AtomicWriteTests.manyAPIs(600, path: "/p"))
        defer { workspace.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // script(1) runs apigen on a pseudo-terminal and copies what it printed to our pipe.
        process.arguments = ["-qec", "'\(apigen.path)'", "/dev/null"]
        process.currentDirectoryURL = workspace.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(text.contains("\r\u{1B}[2Kapigen: rendering 601/601 (100%)"))
        #expect(text.contains("\r\u{1B}[2Kapigen: 601 written, 0 unchanged, 0 removed in "))

        // Not on a terminal (a pipe, as in builds and CI): no progress line at all.
        let piped = try APIGenBinary.run([], in: workspace.root)
        #expect(!piped.stderr.contains("rendering"))
        #expect(piped.stdout.hasPrefix("apigen: 0 written, 601 unchanged"))
    }
}
