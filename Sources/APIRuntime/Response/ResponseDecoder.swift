import Foundation
import HTTPTypes

/// How an API turns the bytes of its result into its `Response` type.
///
/// Most decoders read a body held whole. A decoder made with `streaming` reads it as it arrives
/// instead (a download, an event stream): the manager then hands its 2xx replies on unread, with
/// the body in `APIResponse.streamedBody`.
public struct ResponseDecoder<Response: Sendable>: Sendable {
    private enum Decode: Sendable {
        case whole(@Sendable (APIResponse, String) throws -> Response)
        case streaming(@Sendable (APIResponse, String) async throws -> Response)
    }

    private let decodeReply: Decode

    /// A decoder that reads the whole body, with the reply's header fields, into `Response`.
    public init(_ decode: @escaping @Sendable (_ body: Data, _ headerFields: HTTPFields) throws -> Response) {
        self.decodeReply = .whole { response, _ in try decode(response.body, response.headerFields) }
    }

    private init(_ decodeReply: Decode) {
        self.decodeReply = decodeReply
    }

    /// Decodes from the whole reply (a stream's messages, trailers) and the API's name, for errors.
    public static func reply(_ decode: @escaping @Sendable (_ response: APIResponse, _ api: String) throws -> Response) -> Self {
        Self(.whole(decode))
    }

    /// Decodes a reply whose body streams: `response.streamedBody` holds it, unread, for a 2xx
    /// reply over HTTP; a stub's body, or a protocol's unwrapped one, is in `response.body`.
    public static func streaming(_ decode: @escaping @Sendable (_ response: APIResponse, _ api: String) async throws -> Response) -> Self {
        Self(.streaming(decode))
    }

    /// Whether the reply's body is handed on unread.
    public var streamsBody: Bool {
        if case .streaming = decodeReply { return true }
        return false
    }

    /// `body` is what the API's protocol unwrapped from `response` (a JSON-RPC result, say).
    func decode(_ body: Data, response: APIResponse, api: String) async throws(APIError) -> Response {
        var reply = response
        reply.body = body
        do {
            switch decodeReply {
            case .whole(let decode): return try decode(reply, api)
            case .streaming(let decode): return try await decode(reply, api)
            }
        } catch {
            throw Self.apiError(error, api: api)
        }
    }

    /// The last stage of a call: its unwrapped reply decoded, with the fields that came with it.
    /// A decoded value that goes on after the call (an event stream) stays cancellable.
    func reply(from response: APIResponse, api: String) async throws(APIError) -> APIReply<Response> {
        let value = try await decode(response.body, response: response, api: api)
        let stream = response.stream ?? (streamsBody ? (value as? any StreamingReply)?.replyStream : nil)
        return APIReply(value: value, headerFields: response.headerFields, trailerFields: response.trailerFields, stream: stream)
    }

    /// `decode` for a body already whole (a JSON-RPC batch's results); a streaming decoder reads
    /// it as a one-chunk stream.
    func decodeWhole(_ body: Data, response: APIResponse, api: String) throws(APIError) -> Response {
        var reply = response
        reply.body = body
        guard case .whole(let decode) = decodeReply else {
            throw APIError(api: api, reason: .invalidRequest(message: "a streamed reply cannot be part of a batch"))
        }
        do {
            return try decode(reply, api)
        } catch {
            throw Self.apiError(error, api: api)
        }
    }

    private static func apiError(_ error: any Error, api: String) -> APIError {
        APIError.wrapping(error, api: api) { APIError.decoding($0, api: api) }
    }
}

extension ResponseDecoder where Response: Decodable {
    /// A JSON body: a model, a list, a dictionary or a scalar.
    public static var json: Self {
        Self { body, _ in try JSONCoding.decoder.decode(Response.self, from: body) }
    }
}

extension ResponseDecoder where Response == String {
    /// A JSON string when the server says the body is JSON, otherwise the body as UTF-8 text.
    public static var text: Self {
        Self { body, headerFields in
            if headerFields[.contentType]?.lowercased().contains("json") == true {
                return try JSONCoding.decoder.decode(String.self, from: body)
            }
            guard let text = String(data: body, encoding: .utf8) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the body is not UTF-8 text"))
            }
            return text
        }
    }
}

extension ResponseDecoder where Response == NoContent {
    /// Any body is ignored.
    public static var noContent: Self {
        Self { (_: Data, _: HTTPFields) in NoContent() }
    }
}
