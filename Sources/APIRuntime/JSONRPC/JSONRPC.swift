import APIWireFormat
import Foundation

/// JSON-RPC 2.0 as an `RPCDelegate`: the envelope, id matching, and error objects exactly as the
/// specification (jsonrpc.org/specification) says.
///
/// A reply is read from its own bytes, once: the envelope's members are found where they lie
/// (`JSONSlices`), and the result's bytes, or an error's `data`, go to their decoder as the server
/// wrote them, so a `Decimal` or a 20-digit integer keeps every digit.
public struct JSONRPC: RPCDelegate {
    /// The JSON-RPC 2.0 delegate; generated JSON-RPC APIs use it through their definition's wire.
    public init() {}

    /// Puts the call's parameters into a request object (`jsonrpc`, `method`, `params`, `id`) sent by POST; a notification has no id.
    public func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError) {
        request.method = .post
        request.body = Self.envelope(params: request.body, call: call)
        request.headerFields[.contentType] = "application/json"
    }

    /// The result's bytes from a reply whose id is the call's; an error object becomes `APIError.Reason.rpcError`, a malformed reply `.invalidResponse`.
    public func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data {
        let reply = JSONSlices(response.body)
        let members: [JSONSlices.Member]?
        do {
            members = try reply.members()
        } catch {
            throw Self.unreadable(response, for: call)
        }
        return try Self.checkingStatus(Self.outcome(of: members, in: reply, for: call), of: response, for: call).get()
    }

    /// `outcome` as the reply's HTTP status allows: under an error status a result is not taken
    /// (the server said the request failed), nor is a malformed response object; both become
    /// `.httpStatus`. An error object is the server's word on the call, whatever the status.
    static func checkingStatus(_ outcome: Result<Data, APIError>, of response: APIResponse, for call: RPCCall) -> Result<Data, APIError> {
        guard let status = response.httpStatus, status.kind != .successful else { return outcome }
        if case .failure(let error) = outcome, case .rpcError = error.reason { return outcome }
        return .failure(APIError(api: call.definition.name, reason: .httpStatus(code: status.code, body: response.body)))
    }

    /// `{"jsonrpc":"2.0","result":...,"id":...}`: a server's reply with `result`.
    public func reply(with result: Data, for call: RPCCall) -> APIResponse {
        let body = JSONRPCEnvelope.result(result, id: JSONRPCEnvelope.idText(call.id))
        return APIResponse(status: .ok, headerFields: [.contentType: "application/json"], body: body)
    }

    /// `{"jsonrpc":"2.0","error":{"code":...,"message":...,"data":...},"id":...}`: a server's
    /// error object in reply to the call with `id`.
    static func errorReply(code: Int, message: String, data: JSONValue?, id: Int?) -> APIResponse {
        let body = JSONRPCEnvelope.error(code: code, message: message, data: data?.data, id: JSONRPCEnvelope.idText(id))
        return APIResponse(status: .ok, headerFields: [.contentType: "application/json"], body: body)
    }

    /// `{"jsonrpc":"2.0","method":...,"params":...,"id":...}` plus the API's extra envelope fields.
    /// `params` is the JSON the base API encoded (an object or an array), left out when nil.
    static func envelope(params: Data?, call: RPCCall) -> Data {
        let extra = if case .jsonRPC(let method) = call.definition.wire { method.envelope } else { [(name: String, value: JSONValue)]() }
        return JSONRPCEnvelope.request(method: call.method, params: params, id: call.id, extra: extra)
    }

    /// The result's bytes, or the error, of one response object answering `call`: `members` of
    /// the object `reply` holds, or nil when it holds no object.
    static func outcome(of members: [JSONSlices.Member]?, in reply: JSONSlices, for call: RPCCall) -> Result<Data, APIError> {
        guard let members else {
            return .failure(call.invalidResponse("expected a JSON-RPC response object, found \(reply.kind?.rawValue ?? "something else")"))
        }
        func member(_ key: String) -> Range<Int>? { members.last { $0.key == key }?.value }
        let version = member("jsonrpc")
        guard let version, reply.string(at: version) == "2.0" else {
            return .failure(call.invalidResponse(#"the reply's "jsonrpc" member must be "2.0", found \#(version.map { reply.kind(at: $0) } ?? "none")"#))
        }
        let id = member("id").map(reply.text(of:)) ?? "null"
        let expectedID = call.id.map(String.init) ?? "null"
        let idMatches = if let expected = call.id { Int64(id) == Int64(expected) } else { id == "null" }
        switch (member("result"), member("error")) {
        case (let result?, nil):
            guard idMatches else {
                return .failure(call.invalidResponse("the reply's id (\(reply.kind(at: member("id")))) does not match the request's id \(expectedID)"))
            }
            return .success(reply[result])
        case (nil, let error?):
            // A server that could not read the request's id answers with a null id (spec, section 5).
            guard idMatches || id == "null" else {
                return .failure(call.invalidResponse("the reply's id (\(reply.kind(at: member("id")))) does not match the request's id \(expectedID)"))
            }
            return .failure(errorObject(JSONSlices(reply[error]), for: call))
        case (.some, .some):
            return .failure(call.invalidResponse(#"the reply has both "result" and "error""#))
        case (nil, nil):
            return .failure(call.invalidResponse(#"the reply has neither "result" nor "error""#))
        }
    }

    /// An error object (`{"code": -32601, "message": "Method not found", "data": ...}`) as an
    /// `APIError`; its `data`, when there is one, as the server wrote it.
    static func errorObject(_ error: JSONSlices, for call: RPCCall) -> APIError {
        let members = (try? error.members()) ?? nil
        func member(_ key: String) -> Range<Int>? { members?.last { $0.key == key }?.value }
        guard let code = member("code").flatMap({ Int(error.text(of: $0)) }), let message = member("message").flatMap(error.string) else {
            return call.invalidResponse(#"the error object needs an integer "code" and a string "message""#)
        }
        let data = member("data").map { error[$0] }
        // `errorData:` in the manifest: the data member decoded into its type.
        let serverError = data.flatMap { ErrorResponse.decode($0, status: code, from: call.definition.errorResponses) }
        return APIError(api: call.definition.name, reason: .rpcError(code: code, message: message, data: data), serverError: serverError)
    }

    /// The error for a body that is not JSON: the HTTP status when it is an error, else the body's fault.
    static func unreadable(_ response: APIResponse, for call: RPCCall) -> APIError {
        if let status = response.httpStatus, status.kind != .successful {
            return APIError(api: call.definition.name, reason: .httpStatus(code: status.code, body: response.body))
        }
        if response.body.isEmpty {
            return call.invalidResponse("the reply is empty; expected a JSON-RPC response")
        }
        return call.invalidResponse("the reply is not JSON (\(response.body.count) bytes)")
    }
}
