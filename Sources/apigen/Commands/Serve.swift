import ArgumentParser

/// `apigen serve`: runs `apigen-serve`, the mock server.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer the workspace's REST and JSON-RPC APIs from their samples, on 127.0.0.1 (runs apigen-serve; see apigen-serve --help)."
    )

    @Argument(parsing: .captureForPassthrough, help: "apigen-serve's options: -w, --port, --latency, --fail-rate, --max-request-bytes, --max-concurrent-requests, --max-batch-requests, -q.")
    var arguments: [String] = []

    func run() throws {
        try CompanionTool.run("apigen-serve", arguments)
    }
}
