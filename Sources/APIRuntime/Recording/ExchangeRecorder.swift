import APIWireFormat
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
/// Secrets are redacted with the logging interceptor's rules (`SecretNames`), in requests and
/// replies alike: the values of `Authorization`, cookies and secret-named headers, query items,
/// path parameters, form fields and JSON members, a JSON-RPC call's string parameters passed by
/// position, and any value shaped as a token (a JWT), in a text reply too, are written as
/// `<redacted>`; everything else stays byte for byte (a number keeps every digit). A gRPC
/// message carries no field names to redact by, so it is left out unless `recordsGRPCMessages`
/// asks for it: its exchange is then replayed by its head and status, and its reply fails on
/// replay, saying so. The file is written again after each exchange, so it is complete whenever a
/// test stops. Replies that stream (downloads, event streams, gRPC streams) are recorded by their
/// head only.
public final class ExchangeRecorder: APIInterceptor {
    /// The file the recording is written to; replaced, not appended to.
    public let file: URL
    /// The names whose values are redacted.
    public let secrets: SecretNames
    /// Whether gRPC messages are recorded (in base64, unredacted): for a test whose messages hold
    /// no secret, and which replays gRPC replies.
    public let recordsGRPCMessages: Bool
    /// Guards the exchanges recorded so far, and the writing of the file.
    private let recording = NIOLockedValueBox(Recording())

    /// Records into `file`, redacting what `secrets` names, and gRPC messages only when
    /// `recordsGRPCMessages`. Writes an empty recording there at once, so that a folder that does
    /// not exist or cannot be written fails here rather than lose the run.
    public init(file: URL, secrets: SecretNames = .standard, recordsGRPCMessages: Bool = false) throws {
        self.file = file
        self.secrets = secrets
        self.recordsGRPCMessages = recordsGRPCMessages
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
            request: RecordedRequest.make(request, template: context.definition.pathTemplate, secrets: secrets, grpcMessages: recordsGRPCMessages),
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
            status: response.httpStatus?.code, grpcStatus: response.grpcStatus?.rawValue, grpcMessage: response.grpcMessage.map(secrets.redacted(text:)),
            headers: secrets.redacted(response.headerFields).recorded,
            trailers: response.trailerFields.isEmpty ? nil : secrets.redacted(response.trailerFields).recorded
        )
        if response.stream != nil || response.streamedBody != nil {
            recorded.streamed = true
        } else if response.body.isEmpty {
            // Nothing to keep.
        } else if response.grpcStatus != nil {
            // A protobuf message: bytes, which may happen to parse as JSON or text.
            if recordsGRPCMessages { recorded.bodyBase64 = response.body.base64EncodedString() } else { recorded.messageLeftOut = true }
        } else if let text = secrets.redacted(body: response.body, contentType: response.headerFields[.contentType]) {
            recorded.body = text
        } else {
            recorded.bodyBase64 = response.body.base64EncodedString()
        }
        return recorded
    }
}

/// How a request is written in a recording, and compared on replay.
enum RecordedRequest {
    static func make(_ request: APIRequest, template: PathTemplate?, secrets: SecretNames, grpcMessages: Bool) -> Recording.Request {
        Recording.Request(
            method: request.method.rawValue,
            url: request.url.map { secrets.redacted($0, template: template) } ?? "",
            headers: secrets.redacted(request.headerFields).recorded,
            body: body(of: request, secrets: secrets, grpcMessages: grpcMessages)
        )
    }

    /// What a gRPC request's body is recorded as when its messages are not.
    static let messageLeftOut = "<gRPC message, not recorded>"

    /// The body as a recording keeps it: JSON with its secrets redacted, byte for byte otherwise;
    /// a form with its secret fields redacted; other text with its tokens redacted; a gRPC message
    /// in base64 when asked for, else `messageLeftOut`; other bytes in base64; nil when it
    /// streamed or when it is a multipart form, whose boundary differs on every run.
    static func body(of request: APIRequest, secrets: SecretNames, grpcMessages: Bool) -> String? {
        guard let body = request.body, !body.isEmpty else { return nil }
        let contentType = request.headerFields[.contentType]
        if contentType?.lowercased().hasPrefix("multipart/") == true { return nil }
        if request.grpcMethod != nil { return grpcMessages ? body.base64EncodedString() : messageLeftOut }
        return secrets.redacted(body: body, contentType: contentType) ?? body.base64EncodedString()
    }

    /// A recorded body as replay compares it: redacted as the recorder redacts now (a recording
    /// made by an earlier recorder may keep what it no longer does), JSON with its keys sorted and
    /// a JSON-RPC request's `id`, or each batch member's, left out (each run numbers its calls).
    static func comparable(_ body: String?, secrets: SecretNames) -> String? {
        guard let recorded = body else { return nil }
        let body = recorded == messageLeftOut ? recorded : secrets.redacted(body: Data(recorded.utf8), contentType: nil) ?? recorded
        guard var json = JSONValue.parse(Data(body.utf8)) else { return body }
        func withoutID(_ value: JSONValue) -> JSONValue {
            guard case .object(var members) = value, members["jsonrpc"] != nil else { return value }
            members["id"] = nil
            return .object(members)
        }
        if case .array(let items) = json { json = .array(items.map(withoutID)) } else { json = withoutID(json) }
        return String(decoding: json.data, as: UTF8.self)
    }
}
