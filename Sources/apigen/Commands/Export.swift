import APIGenCommands
import APIGenKit
import APIManifest
import ArgumentParser
import Foundation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe the workspace's APIs in a standard format.",
        subcommands: [ExportOpenAPI.self, ExportOpenRPC.self]
    )
}

struct ExportOpenAPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write an OpenAPI 3.1 document (JSON) of the workspace's REST APIs and types."
    )

    @OptionGroup var options: ExportOptions

    func run() throws {
        try options.export { workspace, description in (OpenAPIExporter.document(workspace, description), []) }
    }
}

struct ExportOpenRPC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openrpc",
        abstract: "Write an OpenRPC 1.3 document (JSON) of the workspace's JSON-RPC APIs and types."
    )

    @OptionGroup var options: ExportOptions

    func run() throws {
        try options.export { workspace, description in
            let export = OpenRPCExporter.export(workspace, description)
            return (export.document, export.notes)
        }
    }
}

struct ExportOptions: ParsableArguments {
    @OptionGroup var workspace: WorkspaceOptions

    @Option(name: [.short, .long], help: "The file to write; standard output when absent.")
    var output: String?

    /// Describes the workspace, prints its diagnostics and the exporter's notes, and writes the
    /// document; exits 1, writing nothing, when the workspace has an error.
    func export(_ document: (LoadedWorkspace, WorkspaceDescription) -> (Data, [Diagnostic])) throws {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: workspace.workspace, into: &diagnostics)
        var data = Data()
        if let (loaded, description) = described, !diagnostics.hasErrors {
            let (exported, notes) = document(loaded, description)
            data = exported + Data("\n".utf8)
            for note in notes { diagnostics.append(note) }
        }
        for diagnostic in diagnostics.sorted where !workspace.quiet || diagnostic.severity == .error {
            Console.error(diagnostic.description)
        }
        guard !data.isEmpty else { throw ExitCode.failure }
        if let output {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
