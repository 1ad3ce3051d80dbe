import APIGenCommands
import APIGenKit
import APIManifest
import ArgumentParser
import Foundation
import OpenAPIImport

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write manifests from a description in a standard format.",
        subcommands: [ImportOpenAPI.self]
    )
}

struct ImportOpenAPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write an API file from an OpenAPI 3.0, 3.1 or 3.2 document (YAML or JSON): operations become REST APIs, schemas types.",
        discussion: """
        What a manifest cannot say is a warning at its JSON pointer, and the rest is imported. \
        The API file is validated with its workspace before apigen exits; when the workspace file \
        does not exist, one is written beside it, with the document's server as the base URL.
        """
    )

    @Argument(help: "The OpenAPI document.")
    var document: String

    @OptionGroup var options: WorkspaceOptions

    @Option(name: [.short, .long], help: "The API file to write; default: the document's name, in the workspace's folder.")
    var output: String?

    @Flag(help: "Replace the API file if it exists.")
    var force = false

    func run() throws {
        let workspaceURL = URL(fileURLWithPath: options.workspace)
        let outputURL = output.map { URL(fileURLWithPath: $0) }
            ?? workspaceURL.deletingLastPathComponent().appendingPathComponent(URL(fileURLWithPath: document).deletingPathExtension().lastPathComponent + ".yaml")
        let files = FileManager.default
        if files.fileExists(atPath: outputURL.path), !force {
            Console.error("apigen: \(Console.displayPath(outputURL)) exists; pass --force to replace it")
            throw ExitCode.failure
        }

        let workspaceExists = files.fileExists(atPath: workspaceURL.path)
        var existingBaseURL: String?
        if workspaceExists {
            var ignored = Diagnostics()
            existingBaseURL = Generator.describe(workspaceFile: options.workspace, into: &ignored)?.1.defaults.baseURL
        }
        let result = OpenAPIImporter.importDocument(at: document, workspaceBaseURL: workspaceExists ? .some(existingBaseURL) : nil)
        for diagnostic in result.diagnostics.sorted where !options.quiet || diagnostic.severity == .error {
            Console.error(diagnostic.description)
        }
        guard let manifest = result.manifest, !result.diagnostics.hasErrors else {
            Console.error("apigen: the document could not be imported (errors above); nothing was written")
            throw ExitCode.failure
        }

        let previous = try? Data(contentsOf: outputURL)
        try files.createDirectory(at: outputURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(manifest.utf8).write(to: outputURL, options: .atomic)
        if !workspaceExists {
            try Data(WorkspaceScaffold.workspaceText(module: OpenAPIImporter.moduleName(title: result.title), baseURL: result.baseURL ?? "https://api.example.com").utf8).write(to: workspaceURL, options: .atomic)
        }

        // The import is only done when its workspace validates; otherwise the files are put back.
        let report = try validate(outputURL, workspace: workspaceURL)
        guard report.succeeded else {
            Console.printDiagnostics(report)
            if let previous { try previous.write(to: outputURL, options: .atomic) } else { try? files.removeItem(at: outputURL) }
            if !workspaceExists { try? files.removeItem(at: workspaceURL) }
            Console.error("apigen: the imported API file does not validate with its workspace, so it was not kept")
            throw ExitCode.failure
        }
        if !options.quiet {
            let warnings = result.diagnostics.all.filter { $0.severity == .warning }.count
            let created = workspaceExists ? "" : " and \(Console.displayPath(workspaceURL))"
            print("apigen: imported \(result.apiCount) APIs and \(result.typeCount) types into \(Console.displayPath(outputURL))\(created), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
    }

    /// Validates the workspace the API file is in; an API file written outside the workspace's
    /// folder is validated on its own, in a temporary workspace.
    private func validate(_ apiFile: URL, workspace: URL) throws -> Generator.Report {
        let folder = workspace.deletingLastPathComponent().standardizedFileURL.path + "/"
        if apiFile.standardizedFileURL.path.hasPrefix(folder) {
            return Generator.run(workspaceFile: workspace.path, mode: .validate)
        }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("apigen-import-\(UUID().uuidString)/apis")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary.deletingLastPathComponent()) }
        try FileManager.default.copyItem(at: apiFile, to: temporary.appendingPathComponent(apiFile.lastPathComponent))
        let workspaceFile = temporary.appendingPathComponent("workspace.yaml")
        try Data("module: ImportCheck\noutput: ../Generated\ndefaults:\n  baseURL: https://example.com\n".utf8).write(to: workspaceFile)
        return Generator.run(workspaceFile: workspaceFile.path, mode: .validate)
    }
}
