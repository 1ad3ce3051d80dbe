import APIWireFormat
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
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
        /// A request body larger than this is answered `413 Content Too Large`, nothing past the
        /// bound kept.
        public var maxRequestBytes: Int
        /// Requests read and answered at once (a sample's delay aside); one past them is answered
        /// `503` at once, with `Retry-After`.
        public var maxConcurrentRequests: Int
        /// The most requests a JSON-RPC batch may hold; a larger one is one Invalid Request error.
        public var maxBatchRequests: Int

        /// Port `port`, no added latency, no failures; 1 MiB bodies, 64 requests at once, batches
        /// of 100.
        public init(
            port: Int = 8080, latency: Duration = .zero, failRate: Double = 0,
            maxRequestBytes: Int = 1 << 20, maxConcurrentRequests: Int = 64, maxBatchRequests: Int = 100
        ) {
            self.port = port
            self.latency = latency
            self.failRate = failRate
            self.maxRequestBytes = maxRequestBytes
            self.maxConcurrentRequests = maxConcurrentRequests
            self.maxBatchRequests = maxBatchRequests
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
        let inFlight = NIOLockedValueBox(0)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            let clock = ContinuousClock()
            let start = clock.now
            let target = request.uri.string
            let method = request.method.rawValue
            if let refusal = Self.refusal(authority: request.head.authority, origin: request.headers[.origin]) {
                return respond(MockAnswer(api: nil, status: 403, body: MockAnswer.error(refusal), delay: .zero), method: method, target: target, elapsed: .zero)
            }
            // A slot is held while the body is read and answered, what takes memory; not while
            // the answer waits out its delay.
            let admitted = inFlight.withLockedValue { count in
                guard count < options.maxConcurrentRequests else { return false }
                count += 1
                return true
            }
            guard admitted else {
                let busy = MockAnswer(api: nil, status: 503, body: MockAnswer.error("apigen serve answers \(options.maxConcurrentRequests) requests at once"), delay: .zero)
                var response = respond(busy, method: method, target: target, elapsed: .zero)
                response.headers[.retryAfter] = "1"
                return response
            }
            let answer: MockAnswer
            do {
                defer { inFlight.withLockedValue { $0 -= 1 } }
                var request = request
                let body = try await request.collectBody(upTo: options.maxRequestBytes)
                answer = self.answer(method: method, target: target, body: Data(body.readableBytesView))
            } catch is NIOTooManyBytesError {
                let tooLarge = MockAnswer(api: nil, status: 413, body: MockAnswer.error("the request's body is larger than \(options.maxRequestBytes) bytes, the most apigen serve reads"), delay: .zero)
                return respond(tooLarge, method: method, target: target, elapsed: .zero)
            }
            try? await Task.sleep(for: answer.delay + options.latency)
            return respond(answer, method: method, target: target, elapsed: clock.now - start)
        }
        var logger = Logger(label: "apigen-serve")
        logger.logLevel = .critical
        let app = Application(
            responder: responder,
            // A connection that sends nothing for this long is closed, and whatever it held freed.
            server: .http1(configuration: .init(idleTimeout: Self.idleTimeout)),
            configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        try await app.run()
    }

    /// How long a connection may send nothing, mid-request or between requests.
    static let idleTimeout: TimeAmount = .seconds(10)

    /// Why a request is refused before it is read: it names another host than this machine
    /// (`Host: attacker.example` is what a page that rebinds its DNS name to 127.0.0.1 sends),
    /// or a page of a site elsewhere sent it (an `Origin` not on this machine). A mock server is
    /// the developer's, not the web's; it sends no CORS headers, so no other page reads it.
    static func refusal(authority: String?, origin: String?) -> String? {
        guard let authority, let host = BaseURL("http://" + authority)?.host, HostName.isLoopback(host) else {
            return "apigen serve answers requests to this machine only (Host: 127.0.0.1, localhost or [::1]); this one names '\(authority ?? "")'"
        }
        if let origin, origin != "null", BaseURL(origin).map({ HostName.isLoopback($0.host) }) != true {
            return "apigen serve answers no web page of another origin; this request comes from '\(origin)'"
        }
        return nil
    }

    /// The answer to one request: a sample, a JSON-RPC reply, or a failure `--fail-rate` injects.
    func answer(method: String, target: String, body: Data) -> MockAnswer {
        let path = String(target.prefix { $0 != "?" })
        let answer = MockAnswer.answer(routes: routes, method: method, path: path, body: body, maxBatchRequests: options.maxBatchRequests)
        if options.failRate > 0, Double.random(in: 0..<1) < options.failRate {
            return MockAnswer(api: answer.api, status: 503, body: Data(#"{"error":"a failure apigen serve injected (--fail-rate)"}"#.utf8), delay: answer.delay)
        }
        return answer
    }

    /// `answer` as a response, and its line in the log.
    private func respond(_ answer: MockAnswer, method: String, target: String, elapsed: Duration) -> Response {
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        log("\(method) \(target) → \(answer.api ?? "no API") \(answer.status) (\(milliseconds) ms)")
        var headers = HTTPFields()
        if !answer.body.isEmpty { headers[.contentType] = "application/json" }
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
