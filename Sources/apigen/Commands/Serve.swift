import APIGenCommands
import ArgumentParser
import Foundation

/// `apigen serve`: runs `apigen-serve`, the mock server, a tool of its own that `apigen` does not
/// compile (it is built beside it: `swift build --product apigen-serve`).
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer the workspace's REST and JSON-RPC APIs from their samples, on 127.0.0.1 (runs apigen-serve; see apigen-serve --help)."
    )

    @Argument(parsing: .captureForPassthrough, help: "apigen-serve's options: -w, --port, --latency, --fail-rate, -q.")
    var arguments: [String] = []

    func run() throws {
        let folder = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath().deletingLastPathComponent()
        let tool = folder.appendingPathComponent("apigen-serve")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            Console.error("error: apigen serve runs apigen-serve, which is not built beside apigen (\(folder.path)): run 'swift build --product apigen-serve'")
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
