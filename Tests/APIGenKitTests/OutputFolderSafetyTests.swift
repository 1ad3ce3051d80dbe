@testable import APIGenKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whatever else runs over the output folder, apigen never leaves it half written and never
/// removes what it did not write.
@Suite("The output folder under concurrent runs, odd files and odd settings", .ownThread)
struct OutputFolderSafetyTests {
    @Test("Concurrent runs with different cache folders take turns: every one exits 0 and the tree is whole")
    func concurrentRunsWithOwnCaches() throws {
        let count = 300
        let workspace = try TemporaryWorkspace(api: AtomicWriteTests.manyAPIs(count, path: "/first"))
        defer { workspace.remove() }
        for round in ["/second", "/third", "/fourth"] {
            try workspace.write("apis/api.yaml", AtomicWriteTests.manyAPIs(count, path: round))
            // A build plugin's sandbox and a terminal each have a cache folder of their own.
            let runs = try (0..<4).map { run in
                try APIGenBinary.start(["-q"], in: workspace.root, environment: ["APIGEN_CACHE_DIR": workspace.root.appendingPathComponent("Cache\(run)").path])
            }
            for run in runs { run.waitUntilExit() }
            #expect(runs.map(\.terminationStatus) == [0, 0, 0, 0])
            let apis = workspace.snapshot().filter { $0.key.hasSuffix("API.swift") }
            #expect(apis.count == count, "every API file is there after \(round)")
            #expect(apis.values.allSatisfy { String(decoding: $0.contents, as: UTF8.self).contains(#"path: "\#(round)/"#) })
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.root.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no staging folder is left beside the output")
    }

    @Test("An output that names an existing file is an error at output:, and the file stays as it was")
    func outputIsAFile() throws {
        let workspace = try TemporaryWorkspace(
            api: WritingTests.twoAPIs,
            workspace: "module: TestClient\noutput: ../notes.txt\ndefaults:\n  baseURL: https://example.com\n"
        )
        defer { workspace.remove() }
        try workspace.write("notes.txt", "a person's notes\n")
        for mode in [Generator.Mode.write, .check] {
            let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: mode)
            let error = try #require(report.diagnostics.errors.first)
            #expect(error.message == "output '../notes.txt' is a file, not a folder; apigen writes a folder of generated files, so give it a path of its own")
            #expect(error.location.line == 2 && error.location.column == 9)
            #expect(workspace.read("notes.txt") == "a person's notes\n")
        }
    }

    @Test("A FIFO in the output folder is kept through a run that rewrites the tree")
    func specialFilesKept() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { workspace.remove() }
        #expect(Generator.run(workspaceFile: workspace.workspaceFile, mode: .write).succeeded)
        let fifos = ["pipe", "api/pipe"].map { workspace.output.appendingPathComponent($0).path }
        for fifo in fifos { #expect(mkfifo(fifo, 0o600) == 0) }
        try workspace.write("apis/more.yaml", "apis:\n  Pong:\n    method: GET\n    path: /pong\n")
        #expect(Generator.run(workspaceFile: workspace.workspaceFile, mode: .write).succeeded)
        #expect(FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent("more/PongAPI.swift").path))
        for fifo in fifos {
            var status = stat()
            #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "\(fifo) is still a FIFO")
        }
    }

    @Test("A FIFO where a generated file goes is an error naming it, not a hang, and nothing is written")
    func specialFileInTheWay() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { workspace.remove() }
        #expect(Generator.run(workspaceFile: workspace.workspaceFile, mode: .write).succeeded)
        let pong = workspace.output.appendingPathComponent("more/PongAPI.swift")
        try FileManager.default.createDirectory(at: pong.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(mkfifo(pong.path, 0o600) == 0)
        try workspace.write("apis/more.yaml", "apis:\n  Pong:\n    method: GET\n    path: /pong\n")
        let before = workspace.snapshot().mapValues(\.contents)
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .write)
        #expect(report.diagnostics.errors.map(\.message) == [
            "cannot write the generated files: 'more/PongAPI.swift' in the output folder is a FIFO, where apigen writes a generated file: remove it",
        ])
        #expect(workspace.snapshot().mapValues(\.contents) == before)
    }

    @Test("Installing the first tree never replaces what appeared at the output path meanwhile")
    func firstInstallNeverReplaces() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apigen-install-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = folder.appendingPathComponent("staging")
        let output = folder.appendingPathComponent("Generated")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try Data("new".utf8).write(to: staging.appendingPathComponent("A.swift"))
        // Something else made the output folder, empty, after apigen found none.
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try DirectorySwap.install(staging.path, at: output.path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
        #expect(FileManager.default.fileExists(atPath: staging.appendingPathComponent("A.swift").path))
        try FileManager.default.removeItem(at: output)
        try DirectorySwap.install(staging.path, at: output.path)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("A.swift").path))
    }
}
