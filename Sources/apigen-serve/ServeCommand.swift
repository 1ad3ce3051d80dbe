import APIWireFormat
import APIGenCommands
import APIGenKit
import APIGenServe
import APIManifest
import ArgumentParser
import Foundation

/// `apigen serve`: a mock server on loopback answering the workspace's REST and JSON-RPC APIs
/// from their `sample:`. A tool of its own, so that neither `apigen` nor the build plugins
/// compile a server.
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apigen-serve",
        abstract: "Answer the workspace's REST and JSON-RPC APIs from their samples, on 127.0.0.1.",
        discussion: "Point the app's base URLs at the server (APIManager.Configuration.baseURLOverrides); each request is logged on one line.",
        version: APIGenVersion.current
    )

    @OptionGroup var workspace: WorkspaceOptions

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: "Seconds added to every answer, after a sample's own delay; at most 3600.")
    var latency = 0.0

    @Option(help: "The share of requests, from 0 to 1, answered 503 Service Unavailable instead.")
    var failRate = 0.0

    @Option(help: "The largest request body read, in bytes; a larger one is answered 413.")
    var maxRequestBytes = 1 << 20

    @Option(help: "Requests answered at once; more are answered 503 with Retry-After.")
    var maxConcurrentRequests = 64

    @Option(help: "The most requests one JSON-RPC batch may hold.")
    var maxBatchRequests = 100

    /// The longest `--latency`: an hour holds an answer back longer than any client waits.
    static let longestLatency = 3600.0

    func validate() throws {
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate is a share of requests, from 0 to 1; found \(failRate)") }
        guard (0...Self.longestLatency).contains(latency) else {
            throw ValidationError("--latency is seconds, from 0 to \(Int(Self.longestLatency)); found \(latency)")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port is from 0 to 65535; found \(port)") }
        guard (1...(1 << 30)).contains(maxRequestBytes) else {
            throw ValidationError("--max-request-bytes is from 1 to 1073741824 (1 GiB); found \(maxRequestBytes)")
        }
        guard (1...10_000).contains(maxConcurrentRequests) else {
            throw ValidationError("--max-concurrent-requests is from 1 to 10000; found \(maxConcurrentRequests)")
        }
        guard (1...10_000).contains(maxBatchRequests) else {
            throw ValidationError("--max-batch-requests is from 1 to 10000; found \(maxBatchRequests)")
        }
    }

    func run() async throws {
        let description = try workspace.describe()
        let routes = MockRoutes(description)
        for collision in routes.collisions { Console.error(collision.diagnostic) }
        let options = MockServer.Options(
            port: port, latency: .milliseconds(Int((latency * 1000).rounded())), failRate: failRate,
            maxRequestBytes: maxRequestBytes, maxConcurrentRequests: maxConcurrentRequests, maxBatchRequests: maxBatchRequests
        )
        let server = MockServer(routes: routes, options: options) { line in Console.output(line) }
        let quiet = workspace.quiet
        try await server.run { port in
            guard !quiet else { return }
            Console.output("apigen serve: listening on http://127.0.0.1:\(port)")
            for line in routes.summary { Console.output("  " + line) }
            if !routes.unserved.isEmpty { Console.output("not served: " + routes.unserved.joined(separator: ", ")) }
            for base in routes.baseURLs {
                Console.output("point \(base) at http://127.0.0.1:\(port)\(BaseURL.path(of: base))")
            }
        }
    }
}
