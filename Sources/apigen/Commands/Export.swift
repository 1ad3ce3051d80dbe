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
        try options.export(OpenAPIExporter.export)
    }
}

struct ExportOpenRPC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openrpc",
        abstract: "Write an OpenRPC 1.3 document (JSON) of the workspace's JSON-RPC APIs and types."
    )

    @OptionGroup var options: ExportOptions

    func run() throws {
        try options.export(OpenRPCExporter.export)
    }
}

struct ExportOptions: ParsableArguments {
    @OptionGroup var workspace: WorkspaceOptions

    @Option(name: [.short, .long], help: "The file to write; standard output when absent.")
    var output: String?

    /// Describes the workspace, prints its diagnostics and the exporter's, and writes the
    /// document; exits 1, writing nothing, when the workspace or the export has an error.
    func export(_ exporter: (LoadedWorkspace, WorkspaceDescription) -> ExportedDocument) throws {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: workspace.workspace, into: &diagnostics)
        var document: Data?
        if let (loaded, description) = described, !diagnostics.hasErrors {
            let exported = exporter(loaded, description)
            document = exported.document
            for diagnostic in exported.diagnostics { diagnostics.append(diagnostic) }
        }
        for diagnostic in diagnostics.sorted where !workspace.quiet || diagnostic.severity == .error {
            Console.error(diagnostic.description)
        }
        guard let document, !diagnostics.hasErrors else { throw ExitCode.failure }
        let data = document + Data("\n".utf8)
        if let output {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
