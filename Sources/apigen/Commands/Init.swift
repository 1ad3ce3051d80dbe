import APIGenCommands
import APIGenKit
import ArgumentParser
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a new workspace (apis/workspace.yaml and an example API) and generate it."
    )

    @Option(name: .long, help: "The Swift module to generate into.")
    var module = "APIClient"

    @Option(name: .long, help: "The folder to create apis/ in (usually your package's root).")
    var directory = "."

    func run() throws {
        let folder = URL(fileURLWithPath: directory)
        let workspaceFile: String
        do {
            workspaceFile = try WorkspaceScaffold.create(module: module, in: folder)
        } catch {
            Console.error("apigen: \(error)")
            throw ExitCode.failure
        }
        let report = try Console.run(workspaceFile, mode: .write)
        print("apigen: created \(Console.displayPath(folder.appendingPathComponent("apis").standardizedFileURL)) and generated \(report.plan.changed.count) files → \(Console.displayPath(report.outputDirectory))")
        print(WorkspaceScaffold.nextSteps(module: module))
    }
}
