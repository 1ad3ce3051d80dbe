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
    func send(_ request: HTTPRequest, body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody)
    /// Closes the transport's connections; calls in flight finish first.
    func shutdown() async
}

/// What a session is keyed by: the transport that serves it, and the scheme, host and port of
/// its base URL. The manager keeps one transport per session.
public struct SessionKey: Hashable, Sendable, CustomStringConvertible {
    /// The name of the `TransportFactory` the session's transport comes from.
    public var transport: String
    public var scheme: String
    public var host: String
    public var port: Int

    public init(transport: String, scheme: String, host: String, port: Int) {
        self.transport = transport
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    init?(_ request: APIRequest, transport: String) {
        guard let origin = Origin(request.url) else { return nil }
        self.init(transport: transport, scheme: origin.scheme, host: origin.host, port: origin.port)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}

/// Settings a transport is created with.
public struct SessionSettings: Sendable {
    public var maxConnectionsPerHost: Int
    /// How long opening a connection may take.
    public var connectTimeout: Duration
    /// The session's host's trust roots, pins and client certificate.
    public var tls: TLSSettings

    public init(maxConnectionsPerHost: Int, connectTimeout: Duration = .seconds(10), tls: TLSSettings = .standard) {
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.connectTimeout = connectTimeout
        self.tls = tls
    }
}
