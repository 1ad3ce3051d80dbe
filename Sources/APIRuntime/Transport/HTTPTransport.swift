/// Sends one request and returns the server's answer; one instance serves one session (base URL).
///
/// A transport enforces `request.timeout` and stops the wire request when its task is cancelled.
/// It throws `APIError` for what it can name (timeout, cancellation, connection errors).
public protocol HTTPTransport: Sendable {
    func send(_ request: APIRequest) async throws(APIError) -> APIResponse
    /// Closes connections once the calls in flight have finished.
    func shutdown() async
    /// True when `send` also stops when its call is cancelled by `BaseAPI.cancel()` or
    /// `APIManager.cancel(tag:)`, because it waits through `withCallCancellationHandler`. When
    /// false (the default) the manager runs each `send` in a task of its own, which those cancel:
    /// one more thread hand-off a call.
    var observesCallCancellation: Bool { get }
}

extension HTTPTransport {
    public var observesCallCancellation: Bool { false }
}

/// What a session is keyed by: the scheme, host and port of its base URL.
public struct SessionKey: Hashable, Sendable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    init?(_ request: APIRequest) {
        guard let scheme = request.url.scheme?.lowercased(), let host = request.url.host?.lowercased() else { return nil }
        let port = request.url.port ?? (scheme == "https" || scheme == "grpcs" ? 443 : 80)
        self.init(scheme: scheme, host: host, port: port)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }

    /// `grpc://` (plaintext HTTP/2) and `grpcs://` (TLS) sessions are gRPC clients.
    package var isGRPC: Bool { scheme == "grpc" || scheme == "grpcs" }
}

/// Settings a transport is created with.
public struct SessionSettings: Sendable {
    public var maxConnectionsPerHost: Int

    public init(maxConnectionsPerHost: Int) {
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }
}
