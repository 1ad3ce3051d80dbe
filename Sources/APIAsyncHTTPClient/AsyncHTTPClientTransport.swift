import APINIOSSL
import APIRuntime
import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

extension TransportFactory {
    /// AsyncHTTPClient, on SwiftNIO: the HTTP transport for servers, and for Linux generally.
    ///
    /// ```swift
    /// APIManager.bootstrap { $0.httpTransport = .asyncHTTPClient }
    /// ```
    public static var asyncHTTPClient: TransportFactory {
        .http(name: "asynchttpclient") { key, settings in try AsyncHTTPClientTransport(host: key.host, settings: settings) }
    }
}

/// One AsyncHTTPClient (its own connection pool) per session, streaming request and response
/// bodies both ways.
///
/// TLS takes the session's trust roots and client identity. Pins it cannot check:
/// AsyncHTTPClient has no hook into certificate verification, so a host with pins fails with
/// `TLSFailure.Kind.unsupported` instead of connecting unpinned. Pin a certificate authority by
/// making it the only trust root.
public final class AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient
    private let host: String

    /// A client for `host` with `settings`; throws `TLSFailure` when its TLS settings cannot be used.
    public init(host: String, settings: SessionSettings) throws(TLSFailure) {
        guard settings.tls.pins.isEmpty else {
            throw TLSFailure(
                kind: .unsupported, host: host,
                message: "AsyncHTTPClient cannot check certificate pins; make the pinned certificate authority the only trust root instead"
            )
        }
        self.host = host
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: settings.maxConnectionsPerHost
        )
        // A connection that fails (refused, or a TLS handshake the server's certificate fails)
        // fails the call at once: the manager's retry policy decides what is tried again, and a
        // certificate that fails now fails on every attempt.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = TimeAmount(clamping: settings.connectTimeout)
        configuration.decompression = .enabled(limit: .ratio(100))
        // The manager follows redirects itself (`RedirectPolicy`), the same for every transport.
        configuration.redirectConfiguration = .disallow
        configuration.tlsConfiguration = try settings.tls.nioSSLConfiguration(host: host)
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Sends `request` with its body streamed as the server takes it; returns when the head arrives, and the body streams in after it with backpressure.
    public func send(_ request: HTTPRequest, body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody) {
        guard let url = request.url else { throw HTTPClientError.invalidURL }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        // With a progress bar to feed, even a whole body goes out in slices, counted as they go.
        if let body = ProgressReporter.current.map({ body?.reportingUpload(to: $0) }) ?? body {
            if let data = body.data {
                outgoing.body = .bytes(ByteBuffer(bytes: data))
            } else {
                let length: HTTPClientRequest.Body.Length = switch body.length {
                case .known(let count): .known(count)
                case .unknown: .unknown
                }
                outgoing.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: length)
            }
        }
        // The manager's deadline cancels this task; AsyncHTTPClient's own is not needed.
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, deadline: .distantFuture)
        } catch {
            throw TLSFailure(nioSSLError: error, host: host) ?? error
        }
        var fields = HTTPFields()
        for header in response.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let head = HTTPResponse(status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase), headerFields: fields)
        let length: HTTPBody.Length = response.headers.first(name: "content-length").flatMap(Int64.init).map { .known($0) } ?? .unknown
        // Each chunk is a Data over AsyncHTTPClient's own buffer, which it keeps alive: no copy.
        let chunks = response.body.map { buffer in
            buffer.getData(at: buffer.readerIndex, length: buffer.readableBytes, byteTransferStrategy: .noCopy) ?? Data()
        }
        return (head, HTTPBody(chunks, length: length))
    }

    /// Shuts the client down once its requests in flight have finished.
    public func shutdown() async {
        // Waits for the calls in flight; a second shutdown only reports that it is already shut down.
        try? await client.shutdown()
    }
}

extension TimeAmount {
    /// `duration` in nanoseconds, saturating at the largest amount NIO can hold.
    init(clamping duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = overflow ? .nanoseconds(seconds < 0 ? .min : .max) : .nanoseconds(nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }
}
