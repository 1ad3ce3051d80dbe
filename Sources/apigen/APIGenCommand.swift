import APIGenKit
import ArgumentParser

@main
struct APIGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apigen",
        abstract: "Generates one Swift API class per endpoint from the YAML manifests of a workspace.",
        version: APIGenVersion.current,
        subcommands: [Generate.self, Check.self, Lint.self, Init.self, Template.self, Schema.self, Export.self],
        defaultSubcommand: Generate.self
    )
}

/// Options every command that reads a workspace shares.
struct WorkspaceOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The workspace file; other .yaml files beside and below it are API files.")
    var workspace = "apis/workspace.yaml"

    @Flag(name: [.short, .long], help: "Print errors and warnings only.")
    var quiet = false
}
