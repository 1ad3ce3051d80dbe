import HTTPTypes

/// Sends HTTP requests for one host and returns what its server answers: the transport of REST,
/// JSON-RPC and custom RPC calls. `URLSessionTransport` is the default;
/// `AsyncHTTPClientTransport` (the `APIAsyncHTTPClient` product) is the choice for servers.
///
/// ```swift
/// struct EchoTransport: HTTPTransport {
///     func send(_ request: HTTPRequest, body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody) {
///         (HTTPResponse(status: .ok), body ?? HTTPBody(Data()))
///     }
///     func shutdown() async {}
/// }
/// ```
///
/// `send` returns once the response's head has arrived; its body follows as it streams in. The
/// manager owns each call's deadline and cancels the calling task when it passes, so a transport
/// stops the exchange (the wire request and the body's reading) when its task is cancelled, and
/// throws for a request that got no response; the manager names the API in the error.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `body` and returns the response's head once it has arrived, with its
    /// body as it streams in. Throws when no response came (connection refused, a reset, a TLS
    /// failure) or when the task was cancelled.
    func send(_ request: HTTPRequest, body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody)
    /// Closes the transport's connections; calls in flight finish first.
    func shutdown() async
}
