import APIGenKit
import ArgumentParser
import Foundation

@main
struct APIGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apigen",
        abstract: "Generates one Swift API class per endpoint from the YAML manifests of a workspace.",
        subcommands: [Generate.self, Check.self],
        defaultSubcommand: Generate.self
    )
}

/// Options every subcommand shares.
struct WorkspaceOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The workspace file; other .yaml files beside and below it are API files.")
    var workspace = "apis/workspace.yaml"

    @Flag(name: [.short, .long], help: "Print errors and warnings only.")
    var quiet = false
}

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate the workspace and write its generated code (the default)."
    )

    @OptionGroup var options: WorkspaceOptions

    func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let report = Generator.run(workspaceFile: options.workspace, mode: .write)
        Console.printDiagnostics(report)
        guard report.succeeded else { throw ExitCode.failure }
        if !options.quiet {
            let plan = report.plan
            let elapsed = (clock.now - start).formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))
            print("apigen: \(plan.changed.count) written, \(plan.unchanged.count) unchanged, \(plan.stale.count) removed in \(elapsed) → \(Console.displayPath(report.outputDirectory))")
        }
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Exit 1 and list the files that differ when the generated code is stale. Writes nothing."
    )

    @OptionGroup var options: WorkspaceOptions

    func run() throws {
        let report = Generator.run(workspaceFile: options.workspace, mode: .check)
        Console.printDiagnostics(report)
        guard report.succeeded else { throw ExitCode.failure }
        let plan = report.plan
        guard plan.isEmpty else {
            let root = Console.displayPath(report.outputDirectory)
            for file in plan.changed { Console.error("\(root)/\(file.path): stale: run 'swift run apigen' and commit the result") }
            for path in plan.stale { Console.error("\(root)/\(path): stale: no manifest declares it any more; run 'swift run apigen'") }
            throw ExitCode.failure
        }
        if !options.quiet {
            print("apigen: generated code is up to date (\(plan.unchanged.count) files)")
        }
    }
}

enum Console {
    static func printDiagnostics(_ report: Generator.Report) {
        for diagnostic in report.diagnostics.sorted { error(diagnostic.description) }
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A path relative to the working directory when it is inside it.
    static func displayPath(_ url: URL?) -> String {
        guard let url else { return "" }
        let cwd = FileManager.default.currentDirectoryPath
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
    }
}
