import APIGenCommands
import ArgumentParser
import Foundation

/// A tool built beside `apigen` that one of its commands runs: `apigen-serve`, `apigen-verify`.
/// They are tools of their own so that `apigen` (and the build plugins) compile neither a
/// server nor an HTTP client.
enum CompanionTool {
    /// Runs `name` with `arguments` and exits with its status.
    static func run(_ name: String, _ arguments: [String]) throws -> Never {
        let folder = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath().deletingLastPathComponent()
        let tool = folder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            Console.error("error: this command runs \(name), which is not built beside apigen (\(folder.path)): run 'swift build --product \(name)'")
            throw ExitCode.failure
        }
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        throw ExitCode(process.terminationStatus)
    }
}
