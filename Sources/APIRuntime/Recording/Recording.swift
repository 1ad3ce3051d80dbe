import Foundation
import HTTPTypes

/// The exchanges of a run, as `ExchangeRecorder` writes them to a file and a replaying transport
/// (`TransportFactory.replaying(_:)`) serves them: JSON a reader can review and diff, with
/// secrets redacted.
public struct Recording: Codable, Sendable, Equatable {
    /// The exchanges, in the order their replies came.
    public var exchanges: [Exchange]

    /// A recording of `exchanges`.
    public init(exchanges: [Exchange] = []) {
        self.exchanges = exchanges
    }

    /// The recording a file holds.
    public init(contentsOf file: URL) throws {
        self = try JSONDecoder().decode(Recording.self, from: Data(contentsOf: file))
    }

    /// The recording as its file holds it: pretty-printed JSON, keys sorted, so that a run
    /// recorded again differs only where the server's replies do.
    public func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// One request and its reply.
    public struct Exchange: Codable, Sendable, Equatable {
        /// The API's manifest name (`GetUser`).
        public var api: String
        /// The request, as it left the recorder.
        public var request: Request
        /// The reply.
        public var response: Response
    }

    /// A request: its method, URL and headers, with secret values redacted.
    public struct Request: Codable, Sendable, Equatable {
        /// `GET`, `POST`, …
        public var method: String
        /// The URL, secret query items and path parameters redacted.
        public var url: String
        /// The header fields (a gRPC call's metadata), secret values redacted.
        public var headers: [Field]
        /// The body, its secrets redacted: JSON byte for byte but for them, a form, other text,
        /// or bytes in base64; a gRPC message in base64 only when the recorder was asked for it.
        /// nil when there was none, or when it streamed (a file, a message stream). Replay
        /// compares it with a JSON-RPC request's `id` left out, as each run numbers its calls.
        public var body: String?
    }

    /// A reply: its status, headers, body and trailers.
    public struct Response: Codable, Sendable, Equatable {
        /// The HTTP status; nil for a gRPC reply.
        public var status: Int?
        /// The gRPC status code; nil for an HTTP reply.
        public var grpcStatus: Int?
        /// The message of the gRPC status, when there was one.
        public var grpcMessage: String?
        /// The header fields (a gRPC reply's initial metadata), secret values redacted.
        public var headers: [Field]
        /// The trailing fields (a gRPC reply's trailing metadata), secret values redacted.
        public var trailers: [Field]?
        /// The body as text: JSON, with secret members redacted, or other UTF-8 text.
        public var body: String?
        /// The body in base64, when it is not text (a protobuf message).
        public var bodyBase64: String?
        /// Whether the reply streamed (a download, an event stream, a gRPC stream): a recording
        /// keeps its head only, and replaying it fails.
        public var streamed: Bool?
        /// Whether the reply's gRPC message was left out (the recorder was not asked for gRPC
        /// messages): replaying it fails, saying so.
        public var messageLeftOut: Bool?
    }

    /// A header or trailer field.
    public struct Field: Codable, Sendable, Equatable {
        /// The field's name, as it was sent.
        public var name: String
        /// Its value, or `<redacted>`.
        public var value: String

        /// A field named `name` with `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}

extension Recording.Response {
    /// The reply as a transport returns it.
    var apiResponse: APIResponse {
        let body = bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data((body ?? "").utf8)
        let status: ReplyStatus = if let grpcStatus {
            .grpc(GRPCStatusCode(rawValue: grpcStatus), message: grpcMessage ?? "")
        } else {
            .http(HTTPResponse.Status(code: status ?? 200))
        }
        return APIResponse(status: status, headerFields: HTTPFields(fields: headers), body: body, trailerFields: HTTPFields(fields: trailers ?? []))
    }
}

extension HTTPFields {
    init(fields: [Recording.Field]) {
        self.init()
        for field in fields {
            if let name = HTTPField.Name(field.name) { append(HTTPField(name: name, value: field.value)) }
        }
    }

    var recorded: [Recording.Field] {
        map { Recording.Field(name: $0.name.rawName, value: $0.value) }
    }
}
