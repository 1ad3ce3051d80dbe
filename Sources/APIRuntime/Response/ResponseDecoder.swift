import Foundation
import HTTPTypes

/// How an API turns the bytes of its result into its `Response` type.
public struct ResponseDecoder<Response: Sendable>: Sendable {
    private let decodeBody: @Sendable (Data, HTTPFields) throws -> Response

    public init(_ decode: @escaping @Sendable (_ body: Data, _ headerFields: HTTPFields) throws -> Response) {
        self.decodeBody = decode
    }

    func decode(_ body: Data, headerFields: HTTPFields, api: String) throws(APIError) -> Response {
        do {
            return try decodeBody(body, headerFields)
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
        Self { body, _ in try JSONCoding.makeDecoder().decode(Response.self, from: body) }
    }
}

extension ResponseDecoder where Response == String {
    /// A JSON string when the server says the body is JSON, otherwise the body as UTF-8 text.
    public static var text: Self {
        Self { body, headerFields in
            if headerFields[.contentType]?.lowercased().contains("json") == true {
                return try JSONCoding.makeDecoder().decode(String.self, from: body)
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
        Self { _, _ in NoContent() }
    }
}
