import Foundation
import HTTPTypes

/// How an API turns the bytes of its result into its `Response` type.
public struct ResponseDecoder<Response: Sendable>: Sendable {
    private let decodeReply: @Sendable (APIResponse, String) throws -> Response

    public init(_ decode: @escaping @Sendable (_ body: Data, _ headerFields: HTTPFields) throws -> Response) {
        self.decodeReply = { response, _ in try decode(response.body, response.headerFields) }
    }

    private init(decodeReply: @escaping @Sendable (APIResponse, String) throws -> Response) {
        self.decodeReply = decodeReply
    }

    /// Decodes from the whole reply (a stream's messages, trailers) and the API's name, for errors.
    public static func reply(_ decode: @escaping @Sendable (_ response: APIResponse, _ api: String) throws -> Response) -> Self {
        Self(decodeReply: decode)
    }

    /// `body` is what the API's protocol unwrapped from `response` (a JSON-RPC result, say).
    func decode(_ body: Data, response: APIResponse, api: String) throws(APIError) -> Response {
        var reply = response
        reply.body = body
        do {
            return try decodeReply(reply, api)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.decoding(error, api: api)
        }
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
