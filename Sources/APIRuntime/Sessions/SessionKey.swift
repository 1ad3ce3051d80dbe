import Foundation

/// What a session is keyed by: the transport that serves it, and the scheme, host and port of
/// its base URL. The manager keeps one transport per session.
public struct SessionKey: Hashable, Sendable, CustomStringConvertible {
    /// The name of the `TransportFactory` the session's transport comes from.
    public var transport: String
    /// The base URL's scheme: `https`, `http`, `grpc`, `grpcs`.
    public var scheme: String
    /// The base URL's host.
    public var host: String
    /// The base URL's port, or its scheme's default.
    public var port: Int

    /// The session of `transport` for `scheme://host:port`.
    public init(transport: String, scheme: String, host: String, port: Int) {
        self.transport = transport
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The session of a request an interceptor sent elsewhere than its plan said.
    init?(_ request: APIRequest, transport: String) {
        guard let origin = request.url.flatMap(Origin.init) else { return nil }
        self.init(transport: transport, scheme: origin.scheme, host: origin.host, port: origin.port)
    }

    /// `https://api.example.com:443`.
    public var description: String { "\(scheme)://\(host):\(port)" }
}

/// Settings a transport is created with.
public struct SessionSettings: Sendable {
    /// How many connections the transport may open to its host at once.
    public var maxConnectionsPerHost: Int
    /// How long opening a connection may take.
    public var connectTimeout: Duration
    /// The session's host's trust roots, pins and client certificate.
    public var tls: TLSSettings
    /// The manager's cookies, which the manager itself adds to requests and fills from replies
    /// for transports that keep cookies (`TransportFactory.keepsCookies`).
    public var cookies: CookieJar

    /// Settings for a transport: its connection limit and timeout, its host's TLS, and the manager's cookies.
    public init(
        maxConnectionsPerHost: Int, connectTimeout: Duration = .seconds(10), tls: TLSSettings = .standard,
        cookies: CookieJar = CookieJar(policy: .perManager)
    ) {
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.connectTimeout = connectTimeout
        self.tls = tls
        self.cookies = cookies
    }
}
