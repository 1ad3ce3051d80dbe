import APIGenCommands
import APIGenKit
import ArgumentParser

/// What apigen's plugins run: `apigen generate` (and `check` and `lint`) without the commands
/// around them, so that an app that generates its clients at build time does not compile
/// `apigen import openapi` and OpenAPIKit, which generation never uses.
@main
struct GenerateTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apigen-generate",
        abstract: "Generates the Swift code of a workspace of API manifests: apigen's generation alone, as its plugins run it.",
        version: APIGenVersion.current,
        subcommands: [Generate.self, Check.self, Lint.self],
        defaultSubcommand: Generate.self
    )
}
