import APIGenKit
import APIManifest
import ArgumentParser

/// Options every command that reads a workspace shares.
package struct WorkspaceOptions: ParsableArguments {
    package init() {}

    @Option(name: [.short, .long], help: "The workspace file; other .yaml files beside and below it are API files.")
    package var workspace = "apis/workspace.yaml"

    @Flag(name: [.short, .long], help: "Print errors and warnings only.")
    package var quiet = false

    /// The workspace read and checked, as the generator describes it, its diagnostics printed
    /// (warnings unless quiet); exits 1 when it has errors.
    package func describe() throws -> WorkspaceDescription {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: workspace, into: &diagnostics)
        for diagnostic in diagnostics.sorted where !quiet || diagnostic.severity == .error {
            Console.error(diagnostic.description)
        }
        guard let (_, description) = described, !diagnostics.hasErrors else { throw ExitCode.failure }
        return description
    }
}

/// Where `generate` and `check` write, in place of what the workspace file says: how the SwiftPM
/// build plugin sends the code into its build folder.
package struct OutputOptions: ParsableArguments {
    package init() {}

    @Option(help: "The output folder, in place of the workspace's 'output:'.")
    var output: String?

    @Option(help: "The folder of hand-written sources ('swift:' types, custom delegates), in place of the workspace's 'sources:'.")
    var sources: String?

    @Option(help: "file-per-api (a folder per manifest, a file per API) or file-per-manifest (the build plugin's: one file per manifest and per proto).")
    var layout: OutputLayout = .filePerAPI

    package var generatorOptions: Generator.Options {
        Generator.Options(output: output, sources: sources, layout: layout)
    }
}

extension OutputLayout: ExpressibleByArgument {}
