import APIGenCommands
import APIGenKit
import ArgumentParser

/// The command line: generation (`APIGenCommands`, which the plugins run alone as
/// `apigen-generate`) and the commands around it.
@main
struct APIGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apigen",
        abstract: "Generates one Swift API class per endpoint from the YAML manifests of a workspace.",
        version: APIGenVersion.current,
        subcommands: [Generate.self, Check.self, Lint.self, Init.self, Template.self, Schema.self, Import.self, Export.self, Diff.self, Serve.self, Verify.self],
        defaultSubcommand: Generate.self
    )
}
