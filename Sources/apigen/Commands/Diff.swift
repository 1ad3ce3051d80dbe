import APIGenCommands
import APIGenKit
import APIManifest
import ArgumentParser
import Foundation

/// `apigen diff`: the changes between two versions of a workspace that break apps already
/// shipped or servers already deployed, REST, JSON-RPC and gRPC alike.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report the changes between two versions of a workspace, and exit 1 when one breaks an app already shipped or a server already deployed.",
        discussion: """
            'apigen diff OLD NEW' compares two workspace files; 'apigen diff --against REF' compares \
            this one (-w) with the same file at a git revision of its repository (a branch, a tag, \
            a commit). Each change is a line at the new version's file:line:col: 'error:' for a \
            breaking change, 'note:' for one that nothing built from the old version notices. \
            Exits 1 when a change breaks, 2 when the versions cannot be compared.
            """
    )

    @Argument(help: "The old workspace file and the new one; without them, --against.")
    var workspaces: [String] = []

    @Option(help: "A git revision whose version of the workspace is the old one; the workspace as it is now is the new one.")
    var against: String?

    @Option(name: [.short, .long], help: "The workspace file, with --against.")
    var workspace = "apis/workspace.yaml"

    @Flag(help: "Print the changes as JSON on standard output, for CI.")
    var json = false

    @Flag(name: [.short, .long], help: "Print breaking changes only.")
    var quiet = false

    func validate() throws {
        if against != nil {
            guard workspaces.isEmpty else { throw ValidationError("give two workspace files, or --against REF, not both") }
        } else {
            guard workspaces.count == 2 else { throw ValidationError("give the old workspace file and the new one, or --against REF") }
        }
    }

    func run() throws {
        let oldFile: String
        let newFile: String
        var checkout: URL?
        if let against {
            let old = try GitRevision.checkout(against, of: workspace)
            (oldFile, newFile, checkout) = (old.workspaceFile, workspace, old.folder)
        } else {
            (oldFile, newFile) = (workspaces[0], workspaces[1])
        }
        defer { if let checkout { try? FileManager.default.removeItem(at: checkout) } }

        let old = try Self.describe(oldFile, as: against.map { "the workspace at \($0)" } ?? "the old workspace")
        let new = try Self.describe(newFile, as: against == nil ? "the new workspace" : "the workspace")
        let changes = WorkspaceDiff.changes(from: old, to: new).filter { !quiet || $0.effect == .breaking }
        let breaking = changes.count { $0.effect == .breaking }
        if json {
            struct Document: Encodable {
                var breaking: Int
                var compatible: Int
                var changes: [WorkspaceChange]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let document = Document(breaking: breaking, compatible: changes.count - breaking, changes: changes)
            Console.output(String(decoding: try encoder.encode(document), as: UTF8.self))
        } else {
            for change in changes { Console.error(change.diagnostic) }
            if !quiet || breaking > 0 {
                let compatible = changes.count - breaking
                Console.error("apigen diff: \(breaking) breaking change\(breaking == 1 ? "" : "s"), \(compatible) compatible")
            }
        }
        if breaking > 0 { throw ExitCode.failure }
    }

    /// `file` read and checked; its errors printed and exit status 1 when it has any.
    static func describe(_ file: String, as what: String) throws -> WorkspaceDescription {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: file, into: &diagnostics)
        guard let (_, description) = described, !diagnostics.hasErrors else {
            Console.error("error: \(what) (\(file)) has errors, so it cannot be compared:")
            for diagnostic in diagnostics.sorted where diagnostic.severity == .error { Console.error(diagnostic.description) }
            throw ExitCode.cannotCompare
        }
        return description
    }
}

/// A file of this repository as a git revision has it, with the whole tree of that revision
/// around it, in a temporary folder: what `apigen diff --against` compares with.
enum GitRevision {
    static func checkout(_ revision: String, of file: String) throws -> (workspaceFile: String, folder: URL) {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL
        let folder = absolute.deletingLastPathComponent()
        let top = try git(["rev-parse", "--show-toplevel"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
        let root = URL(fileURLWithPath: top).resolvingSymlinksInPath().path + "/"
        let path = absolute.resolvingSymlinksInPath().path
        guard path.hasPrefix(root) else {
            Console.error("error: \(file) is not inside the git repository at \(top)")
            throw ExitCode.cannotCompare
        }
        let checkout = FileManager.default.temporaryDirectory.appendingPathComponent("apigen-diff-\(UUID())")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        let archive = checkout.appendingPathComponent(".revision.tar")
        do {
            _ = try git(["archive", "--format=tar", "-o", archive.path, revision], in: URL(fileURLWithPath: top))
            _ = try run("/usr/bin/env", ["tar", "-xf", archive.path, "-C", checkout.path], in: checkout)
            try FileManager.default.removeItem(at: archive)
        } catch {
            try? FileManager.default.removeItem(at: checkout)
            throw error
        }
        let relative = String(path.dropFirst(root.count))
        guard FileManager.default.fileExists(atPath: checkout.appendingPathComponent(relative).path) else {
            try? FileManager.default.removeItem(at: checkout)
            Console.error("error: \(relative) does not exist at \(revision)")
            throw ExitCode.cannotCompare
        }
        return (checkout.appendingPathComponent(relative).path, checkout)
    }

    private static func git(_ arguments: [String], in folder: URL) throws -> String {
        try run("/usr/bin/env", ["git"] + arguments, in: folder)
    }

    /// What `tool` printed; its error output and exit 1 when it fails.
    private static func run(_ tool: String, _ arguments: [String], in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            Console.error("error: cannot run \(arguments.first ?? tool): \(error.localizedDescription)")
            throw ExitCode.cannotCompare
        }
        // Both are short (a path, a message); a tar archive goes to a file.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: complaint, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            Console.error("error: \(arguments.joined(separator: " ")) failed: \(message)")
            throw ExitCode.cannotCompare
        }
        return String(decoding: printed, as: UTF8.self)
    }
}

extension ExitCode {
    /// `apigen diff` could not compare (a version with errors, a revision git does not have):
    /// 2, as diff(1) says trouble, so that CI tells it from a breaking change (1).
    static let cannotCompare = ExitCode(2)
}
