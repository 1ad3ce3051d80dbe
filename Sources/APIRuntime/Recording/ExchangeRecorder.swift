import Foundation
import HTTPTypes
import NIOConcurrencyHelpers

/// An interceptor that writes each exchange of a run to a file, for a replaying transport to
/// serve in tests with no server (`TransportFactory.replaying(_:)`):
///
/// ```swift
/// let recorder = try ExchangeRecorder(file: fixtures.appendingPathComponent("users.json"))
/// configuration.interceptors.append(recorder)   // records each request as it goes on the wire
/// ```
///
/// Secrets are redacted with the logging interceptor's rules (`SecretNames`): the values of
/// `Authorization`, cookies and secret-named headers, query items, path parameters and JSON
/// members are written as `<redacted>`, in requests and replies alike. The file is written again
/// after each exchange, so it is complete whenever a test stops. Replies that stream (downloads,
/// event streams, gRPC streams) are recorded by their head only.
public final class ExchangeRecorder: APIInterceptor {
    /// The file the recording is written to; replaced, not appended to.
    public let file: URL
    /// The names whose values are redacted.
    public let secrets: SecretNames
    /// Guards the exchanges recorded so far, and the writing of the file.
    private let recording = NIOLockedValueBox(Recording())

    /// Records into `file`, redacting what `secrets` names. Writes an empty recording there at
    /// once, so that a folder that does not exist or cannot be written fails here rather than
    /// lose the run.
    public init(file: URL, secrets: SecretNames = .standard) throws {
        self.file = file
        self.secrets = secrets
        try Recording().data().write(to: file, options: .atomic)
    }

    /// `recording`, as a manifest names it in `skipInterceptors:`.
    public var name: String { "recording" }

    /// The exchanges recorded so far.
    public var exchanges: [Recording.Exchange] {
        recording.withLockedValue { $0.exchanges }
    }

    /// Passes the request on and records it with its reply; an error no server sent (a failed
    /// connection, a timeout) is not recorded.
    public func intercept(
        _ request: APIRequest,
        context: APICallContext,
        next: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        let response = try await next()
        let exchange = Recording.Exchange(
            api: request.api,
            request: RecordedRequest.make(request, template: context.definition.pathTemplate, secrets: secrets),
            response: recorded(response)
        )
        recording.withLockedValue { recording in
            recording.exchanges.append(exchange)
            // A test's fixture is small; writing it whole keeps the file valid JSON at every step.
            // The file could be written when the recorder was made; should that change, the
            // exchanges are still in `exchanges`.
            try? recording.data().write(to: file, options: .atomic)
        }
        return response
    }

    private func recorded(_ response: APIResponse) -> Recording.Response {
        var recorded = Recording.Response(
            status: response.httpStatus?.code, grpcStatus: response.grpcStatus?.rawValue, grpcMessage: response.grpcMessage,
            headers: secrets.redacted(response.headerFields).recorded,
            trailers: response.trailerFields.isEmpty ? nil : secrets.redacted(response.trailerFields).recorded
        )
        if response.stream != nil || response.streamedBody != nil {
            recorded.streamed = true
        } else if response.body.isEmpty {
            // Nothing to keep.
        } else if response.grpcStatus != nil {
            // A protobuf message: bytes, which may happen to parse as JSON or text.
            recorded.bodyBase64 = response.body.base64EncodedString()
        } else if let json = JSONValue.parse(response.body), secrets.hasSecret(json) {
            recorded.body = String(decoding: secrets.redacted(json).data, as: UTF8.self)
        } else if let text = String(data: response.body, encoding: .utf8) {
            recorded.body = text
        } else {
            recorded.bodyBase64 = response.body.base64EncodedString()
        }
        return recorded
    }
}

/// How a request is written in a recording, and compared on replay.
enum RecordedRequest {
    static func make(_ request: APIRequest, template: PathTemplate?, secrets: SecretNames) -> Recording.Request {
        Recording.Request(
            method: request.method.rawValue,
            url: request.url.map { secrets.redacted($0, template: template) } ?? "",
            headers: secrets.redacted(request.headerFields).recorded,
            body: body(of: request, secrets: secrets)
        )
    }

    /// The body as a recording compares it: JSON redacted and re-encoded (keys sorted), without a
    /// JSON-RPC request's `id`; a form with its secret fields redacted; other text as it is; a
    /// gRPC message and other bytes in base64; nil when it streamed or when it is a multipart
    /// form, whose boundary differs on every run.
    static func body(of request: APIRequest, secrets: SecretNames) -> String? {
        guard let body = request.body, !body.isEmpty else { return nil }
        if request.headerFields[.contentType]?.lowercased().hasPrefix("multipart/") == true { return nil }
        if request.grpcMethod != nil { return body.base64EncodedString() }
        if var json = JSONValue.parse(body) {
            if case .object(var members) = json, members["jsonrpc"] != nil {
                members["id"] = nil
                json = .object(members)
            }
            return String(decoding: secrets.redacted(json).data, as: UTF8.self)
        }
        guard let text = String(data: body, encoding: .utf8) else { return body.base64EncodedString() }
        if request.headerFields[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            return secrets.redacted(form: text)
        }
        return text
    }
}
