import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// A request as the server received it, bytes and all.
public struct RecordedRequest: Sendable {
    public var method: HTTPRequest.Method
    /// The request target exactly as sent: path and query, still percent-encoded.
    public var target: String
    public var headers: HTTPFields
    public var body: Data

    public var path: String { String(target.prefix { $0 != "?" }) }
    public var query: String? { target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } }
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A real Hummingbird HTTP/1.1 server on 127.0.0.1, on a port the OS picks. Each test starts its
/// own, says how it answers, and reads back what it received.
///
/// Servers run until the test process ends; none is stopped mid-run. Stopping a Hummingbird
/// server while the kernel hands it a new connection trips a precondition in NIO's async channel
/// (seen in about one full run in three, with ~70 tests starting servers in parallel), and a
/// stopped server's port can be given to another test's server. An idle server costs a socket.
public final class LoopbackServer: Sendable {
    public typealias Handler = @Sendable (RecordedRequest) async throws -> Response

    public let port: Int
    /// The running application; kept so that it lives as long as the server object.
    private let task: Task<Void, any Error>
    private let log: NIOLockedValueBox<[RecordedRequest]>

    /// Whether the server speaks TLS.
    public let isTLS: Bool

    /// `http://127.0.0.1:<port>`, or `https://localhost:<port>` for a TLS server, whose test
    /// certificates name localhost.
    public var baseURL: String { isTLS ? "https://localhost:\(port)" : "http://127.0.0.1:\(port)" }
    public var requests: [RecordedRequest] { log.withLockedValue { $0 } }

    /// Stops the server: it takes no more connections, and waits for nothing it was serving.
    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    private init(port: Int, isTLS: Bool, task: Task<Void, any Error>, log: NIOLockedValueBox<[RecordedRequest]>) {
        self.port = port
        self.isTLS = isTLS
        self.task = task
        self.log = log
    }

    /// A server over plain HTTP/1.1, or over TLS as `tls` says; `recording: false` keeps no
    /// requests (for a soak, whose memory must not grow with every call).
    public static func start(tls: NIOSSL.TLSConfiguration? = nil, recording: Bool = true, _ handler: @escaping Handler) async throws -> LoopbackServer {
        let log = NIOLockedValueBox<[RecordedRequest]>([])
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 16 * 1024 * 1024)
            let recorded = RecordedRequest(
                method: request.method, target: request.uri.string,
                headers: request.headers, body: Data(body.readableBytesView)
            )
            if recording { log.withLockedValue { $0.append(recorded) } }
            return try await handler(recorded)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            responder: responder,
            server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: quietLogger
        )
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw CancellationError()
        }
        return LoopbackServer(port: port, isTLS: tls != nil, task: task, log: log)
    }
}

/// The server's own log would bury test output; it reports only what is critical.
private let quietLogger: Logger = {
    var logger = Logger(label: "loopback-server")
    logger.logLevel = .critical
    return logger
}()

extension Response {
    public static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    public static func text(_ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
