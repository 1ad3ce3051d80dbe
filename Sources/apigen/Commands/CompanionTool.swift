import APIGenCommands
import ArgumentParser
import Foundation

/// A tool built beside `apigen` that one of its commands runs: `apigen-serve`, `apigen-verify`.
/// They are tools of their own so that `apigen` (and the build plugins) compile neither a
/// server nor an HTTP client.
enum CompanionTool {
    /// Runs `name` with `arguments` and exits with its status. A signal that would end
    /// `apigen` (Ctrl-C, Ctrl-\\, `kill`, a closed terminal) is passed on to the tool, and
    /// `apigen` ends when the tool does: a server left running without its parent would hold its
    /// port. `kill -9` cannot be passed on.
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
        // After `run`: a signal ignored here before it would be ignored by the tool too. A signal
        // in the moment between the two still ends apigen alone.
        let forwarding = forwardSignals([SIGINT, SIGTERM, SIGHUP, SIGQUIT], to: process.processIdentifier)
        process.waitUntilExit()
        for source in forwarding { source.cancel() }
        // A tool ended by a signal exits as a shell reports it: 128 plus the signal's number.
        throw ExitCode(process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus)
    }

    /// Sends each of `signals` that reaches this process on to `pid`, instead of ending here.
    private static func forwardSignals(_ signals: [Int32], to pid: Int32) -> [any DispatchSourceSignal] {
        signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { kill(pid, signalNumber) }
            source.resume()
            return source
        }
    }
}
