import Foundation

/// JSON-RPC 2.0 as an `RPCDelegate`: the envelope, id matching, and error objects exactly as the
/// specification (jsonrpc.org/specification) says.
public struct JSONRPC: RPCDelegate {
    public init() {}

    public var kind: CallKind { .jsonRPC }

    public func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError) {
        request.method = .post
        request.body = Self.envelope(params: request.body, call: call)
        request.headerFields[.contentType] = "application/json"
    }

    public func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data {
        guard let reply = JSONValue.parse(response.body) else {
            throw Self.unreadable(response, for: call)
        }
        switch Self.outcome(of: reply, for: call) {
        case .success(let result):
            return result
        case .failure(let error):
            if case .invalidResponse = error.reason, response.status.kind != .successful {
                throw APIError(api: call.definition.name, reason: .httpStatus(code: response.status.code, body: response.body))
            }
            throw error
        }
    }

    /// `{"jsonrpc":"2.0","method":...,"params":...,"id":...}` plus the API's extra envelope fields.
    /// `params` is the JSON the base API encoded (an object or an array), left out when nil.
    static func envelope(params: Data?, call: RPCCall) -> Data {
        var data = Data(#"{"jsonrpc":"2.0","method":"#.utf8)
        data.append(JSONValue.string(call.method).data)
        if let params {
            data.append(Data(#","params":"#.utf8))
            data.append(params)
        }
        if let id = call.id {
            data.append(Data(#","id":\#(id)"#.utf8))
        }
        for field in call.definition.rpc?.envelopeFields ?? [] {
            data.append(Data(",".utf8))
            data.append(JSONValue.string(field.name).data)
            data.append(Data(":\(field.json)".utf8))
        }
        data.append(Data("}".utf8))
        return data
    }

    /// The result's JSON, or the error, of one response object answering `call`.
    static func outcome(of reply: JSONValue, for call: RPCCall) -> Result<Data, APIError> {
        guard case .object(let members) = reply else {
            return .failure(call.invalidResponse("expected a JSON-RPC response object, found \(reply.kindName)"))
        }
        guard members["jsonrpc"] == .string("2.0") else {
            return .failure(call.invalidResponse(#"the reply's "jsonrpc" member must be "2.0", found \#(members["jsonrpc"]?.textForMessage ?? "none")"#))
        }
        let expectedID = call.id.map { JSONValue.integer(Int64($0)) } ?? .null
        let id = members["id"] ?? .null
        switch (members["result"], members["error"]) {
        case (let result?, nil):
            guard id == expectedID else {
                return .failure(call.invalidResponse("the reply's id \(id.textForMessage) does not match the request's id \(expectedID.textForMessage)"))
            }
            return .success(result.data)
        case (nil, let error?):
            // A server that could not read the request's id answers with a null id (spec, section 5).
            guard id == expectedID || id == .null else {
                return .failure(call.invalidResponse("the reply's id \(id.textForMessage) does not match the request's id \(expectedID.textForMessage)"))
            }
            return .failure(errorObject(error, for: call))
        case (.some, .some):
            return .failure(call.invalidResponse(#"the reply has both "result" and "error""#))
        case (nil, nil):
            return .failure(call.invalidResponse(#"the reply has neither "result" nor "error""#))
        }
    }

    /// An error object (`{"code": -32601, "message": "Method not found", "data": ...}`) as an `APIError`.
    static func errorObject(_ error: JSONValue, for call: RPCCall) -> APIError {
        guard case .integer(let code)? = error["code"], case .string(let message)? = error["message"], let intCode = Int(exactly: code) else {
            return call.invalidResponse(#"the error object needs an integer "code" and a string "message", found \#(error.textForMessage)"#)
        }
        let data = error["data"]?.data
        // `errorData:` in the manifest: the data member decoded into its type.
        let serverError = data.flatMap { ErrorResponse.decode($0, status: intCode, from: call.definition.errorResponses) }
        return APIError(api: call.definition.name, reason: .rpcError(code: intCode, message: message, data: data), serverError: serverError)
    }

    /// The error for a body that is not JSON: the HTTP status when it is an error, else the body's fault.
    static func unreadable(_ response: APIResponse, for call: RPCCall) -> APIError {
        if response.status.kind != .successful {
            return APIError(api: call.definition.name, reason: .httpStatus(code: response.status.code, body: response.body))
        }
        if response.body.isEmpty {
            return call.invalidResponse("the reply is empty; expected a JSON-RPC response")
        }
        let preview = String(decoding: response.body.prefix(80), as: UTF8.self)
        return call.invalidResponse("the reply is not JSON: \(preview)")
    }
}

extension JSONValue {
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Short JSON text for messages.
    var textForMessage: String {
        let text = String(decoding: data, as: UTF8.self)
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}
