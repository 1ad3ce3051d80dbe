import APIGenKit
import ArgumentParser
import Foundation

package struct Generate: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Validate the workspace and write its generated code (the default)."
    )

    @OptionGroup var options: WorkspaceOptions
    @OptionGroup var output: OutputOptions

    package init() {}

    package func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let progress = ProgressLine(enabled: !options.quiet)
        let report = try Console.run(options.workspace, mode: .write, options: output.generatorOptions) { progress.update($0, $1) }
        progress.finish()
        if !options.quiet {
            let plan = report.plan
            print("apigen: \(plan.changed.count) written, \(plan.unchanged.count) unchanged, \(plan.stale.count) removed in \(Console.format(clock.now - start)) → \(Console.displayPath(report.outputDirectory))")
        }
    }
}

package struct Check: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Exit 1 and list the files that differ when the generated code is stale. Writes nothing."
    )

    @OptionGroup var options: WorkspaceOptions
    @OptionGroup var output: OutputOptions

    package init() {}

    package func run() throws {
        let report = try Console.run(options.workspace, mode: .check, options: output.generatorOptions)
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

package struct Lint: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Validate the workspace and report every error and warning. Writes nothing."
    )

    @OptionGroup var options: WorkspaceOptions

    package init() {}

    package func run() throws {
        let report = try Console.run(options.workspace, mode: .validate)
        if !options.quiet {
            let warnings = report.diagnostics.all.filter { $0.severity == .warning }.count
            let counts = report.counts
            print("apigen: \(counts.apis) APIs and \(counts.types) types in \(counts.manifests) files: no errors, \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
    }
}
