import APIGenKit
import APIManifest
import ArgumentParser
import Foundation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe the workspace's APIs in a standard format.",
        subcommands: [ExportOpenAPI.self]
    )
}

struct ExportOpenAPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write an OpenAPI 3.1 document (JSON) of the workspace's REST APIs and types."
    )

    @OptionGroup var options: WorkspaceOptions

    @Option(name: [.short, .long], help: "The file to write; standard output when absent.")
    var output: String?

    func run() throws {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: options.workspace, into: &diagnostics)
        for diagnostic in diagnostics.sorted where !options.quiet || diagnostic.severity == .error {
            Console.error(diagnostic.description)
        }
        guard let (workspace, description) = described, !diagnostics.hasErrors else { throw ExitCode.failure }
        let document = OpenAPIExporter.document(workspace, description) + Data("\n".utf8)
        if let output {
            try document.write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            FileHandle.standardOutput.write(document)
        }
    }
}
