import Foundation

/// Makes the transport of each session (one per host) of one kind of transport. The manager's
/// configuration names one for HTTP calls, `httpTransport`, and one for gRPC calls:
///
/// ```swift
/// APIManager.bootstrap { $0.httpTransport = .asyncHTTPClient }   // import APIAsyncHTTPClient
/// ```
///
/// `.urlSession` is the default for HTTP; gRPC APIs bring their own default (`import APIGRPC`).
/// A transport of your own is an `HTTPTransport`: `.http(name: "mine") { key, settings in Mine(key) }`.
public struct TransportFactory: Sendable {
    /// Sessions of different factories never share a transport.
    public let name: String
    /// The URL schemes this factory's transports can reach; a call to another scheme is an
    /// invalid request naming its API, not a crash or a protocol spoken to the wrong server.
    public let schemes: Set<String>
    /// Whether calls through these transports keep and send cookies, as the manager's
    /// `Configuration.cookies` says. The manager does it, not the transport: it adds the cookies
    /// to each request before the cache and the interceptors read it, and keeps what each reply
    /// (each redirect's too) sets.
    public let keepsCookies: Bool
    package let make: @Sendable (SessionKey, SessionSettings, APIManager.Configuration) throws -> any CallTransport

    package init(
        name: String, schemes: Set<String>, keepsCookies: Bool = false,
        make: @escaping @Sendable (SessionKey, SessionSettings, APIManager.Configuration) throws -> any CallTransport
    ) {
        self.name = name
        self.schemes = schemes
        self.keepsCookies = keepsCookies
        self.make = make
    }

    /// A factory of HTTP transports for `http` and `https` URLs, whose calls keep cookies as the
    /// manager's configuration says when `keepsCookies`. What `make` throws fails the call that
    /// needed the transport (a `TLSFailure` as `APIError.Reason.tls`).
    public static func http(
        name: String, keepsCookies: Bool = false,
        _ make: @escaping @Sendable (SessionKey, SessionSettings) throws -> any HTTPTransport
    ) -> TransportFactory {
        TransportFactory(name: name, schemes: ["http", "https"], keepsCookies: keepsCookies) { key, settings, configuration in
            HTTPCallTransport(
                try make(key, settings), maxResponseBytes: configuration.maxResponseBytes,
                limits: ReplyLimits(maxDownloadBytes: configuration.maxDownloadBytes, maxLineBytes: configuration.maxStreamLineBytes),
                redirects: configuration.redirects, tls: settings.tls, tlsByHost: TLSSettings.byHost(configuration.tls),
                cookies: keepsCookies ? settings.cookies : nil
            )
        }
    }

    /// URLSession (FoundationNetworking on Linux): the default for HTTP calls. Its calls keep
    /// cookies as the manager's configuration says.
    ///
    /// On Apple platforms it honours every `TLSSettings` (a client identity as PKCS #12). Linux's
    /// URLSession offers no hook for TLS, so there a host with settings other than `.standard`
    /// fails with `TLSFailure.Kind.unsupported` rather than connecting without them.
    public static var urlSession: TransportFactory {
        .http(name: "urlsession", keepsCookies: true) { key, settings in
            #if !canImport(Darwin)
            guard settings.tls == .standard else {
                throw TLSFailure(
                    kind: .unsupported, host: key.host,
                    message: "Linux's URLSession takes no trust roots, pins or client certificates; use AsyncHTTPClient (`$0.httpTransport = .asyncHTTPClient`)"
                )
            }
            #endif
            return URLSessionTransport(settings: settings)
        }
    }
}

/// Sends one call's wire request and returns the server's answer, as the manager's interceptors
/// see them: what every kind of transport is adapted to.
package protocol CallTransport: Sendable {
    func send(_ request: APIRequest) async throws(APIError) -> APIResponse
    func shutdown() async
}
