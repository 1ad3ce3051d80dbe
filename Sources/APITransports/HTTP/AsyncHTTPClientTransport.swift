import APIRuntime
import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// The production transport: one AsyncHTTPClient (its own connection pool) per session.
final class AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient
    private let maxResponseBytes: Int

    init(settings: SessionSettings, configuration manager: APIManager.Configuration) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: settings.maxConnectionsPerHost
        )
        configuration.timeout.connect = TimeAmount(manager.connectTimeout)
        configuration.decompression = .enabled(limit: .ratio(100))
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.maxResponseBytes = manager.maxResponseBytes
    }

    // It does not observe `CallCancellation`: AsyncHTTPClient's async `execute` stops only when
    // its task is cancelled, so the manager runs each call's `send` in a task of its own. The
    // alternative, its `HTTPClient.Task` API, can be cancelled from outside, but measured slower on
    // loopback than the task it saves (GET and POST at 32 wide 0.53-0.70x raw against 0.62-0.79x;
    // its replies hop from the connection's event loop to the request's: BENCHMARKS.md §4).

    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let deadline = NIODeadline.now() + TimeAmount(request.timeout)
            let response = try await client.execute(outgoing, deadline: deadline)
            let body = try await response.body.collect(upTo: maxResponseBytes)
            var fields = HTTPFields()
            for header in response.headers {
                if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
            }
            return APIResponse(
                status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
                headerFields: fields,
                // One copy of the bytes (`Data`'s generic `Sequence` initializer went byte by byte:
                // 1 % of a call's CPU on loopback).
                body: body.withUnsafeReadableBytes { Data($0) }
            )
        } catch {
            throw Self.apiError(error, request: request)
        }
    }

    func shutdown() async {
        // Waits for the calls in flight; a second shutdown only reports that it is already shut down.
        try? await client.shutdown()
    }

    static func apiError(_ error: any Error, request: APIRequest) -> APIError {
        let reason: APIError.Reason
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            reason = .timeout(request.timeout)
        case let error as HTTPClientError where error == .cancelled:
            reason = .cancelled
        case is CancellationError:
            reason = .cancelled
        case let error as NIOTooManyBytesError:
            reason = .invalidResponse(message: "the body is larger than \(error.maxBytes.map(String.init) ?? "the limit") bytes")
        default:
            reason = CallCancellation.isCancelled ? .cancelled : .transport(message: "\(error)")
        }
        return APIError(api: request.api, reason: reason, underlying: error)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
