import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A mock server on loopback answering a workspace's REST and JSON-RPC APIs from their
/// `sample:`, for running an app or its UI tests against a backend that does not exist yet.
public struct MockServer: Sendable {
    /// How the server answers besides the samples.
    public struct Options: Sendable {
        /// The port to listen on; 0 picks a free one.
        public var port: Int
        /// Added to every answer, after any sample's own delay.
        public var latency: Duration
        /// The share of requests (0 to 1) answered `503 Service Unavailable` instead.
        public var failRate: Double

        /// Port `port`, no added latency, no failures.
        public init(port: Int = 8080, latency: Duration = .zero, failRate: Double = 0) {
            self.port = port
            self.latency = latency
            self.failRate = failRate
        }
    }

    let routes: MockRoutes
    let options: Options
    /// Told one line per request: `GET /v1/users/7 → GetUser 200 (3 ms)`.
    let log: @Sendable (String) -> Void

    /// A server of `routes`, answering as `options` say, writing a line per request to `log`.
    public init(routes: MockRoutes, options: Options, log: @escaping @Sendable (String) -> Void) {
        self.routes = routes
        self.options = options
        self.log = log
    }

    /// Listens on 127.0.0.1 and calls `onRunning` with the port once it does; returns when the
    /// task running it is cancelled.
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024 * 1024)
            return await answer(method: request.method.rawValue, target: request.uri.string, body: Data(body.readableBytesView))
        }
        var logger = Logger(label: "apigen-serve")
        logger.logLevel = .critical
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        try await app.run()
    }

    /// The answer to one request, after the sample's delay and the added latency, and its line
    /// in the log.
    func answer(method: String, target: String, body: Data) async -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        let path = String(target.prefix { $0 != "?" })
        var answer = MockAnswer.answer(routes: routes, method: method, path: path, body: body)
        if options.failRate > 0, Double.random(in: 0..<1) < options.failRate {
            answer = MockAnswer(api: answer.api, status: 503, body: Data(#"{"error":"a failure apigen serve injected (--fail-rate)"}"#.utf8), delay: answer.delay)
        }
        try? await Task.sleep(for: answer.delay + options.latency)
        let elapsed = clock.now - start
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        log("\(method) \(target) → \(answer.api ?? "no API") \(answer.status) (\(milliseconds) ms)")
        var headers = HTTPFields()
        if !answer.body.isEmpty { headers[.contentType] = "application/json" }
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
