import APIRuntime
import Foundation

/// The envelope of an older in-house protocol, written by hand as a team would: requests are
/// `{"cmd": "<method>", "args": {...}}` and replies `{"code": 0, "data": ...}`, where a non-zero
/// code is an error with a message in `msg`. APIs of `kind: rpc` name it with `delegate:`.
public struct CommandEnvelope: RPCDelegate {
    public init() {}

    public func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError) {
        var body = Data(#"{"cmd":"#.utf8)
        body.append(JSONValue.string(call.method).data)
        body.append(Data(#","args":"#.utf8))
        body.append(request.body ?? Data("{}".utf8))
        body.append(Data("}".utf8))
        request.method = .post
        request.body = body
        request.headerFields[.contentType] = "application/json"
    }

    public func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data {
        guard let status = response.httpStatus, status.kind == .successful else {
            throw APIError(api: call.definition.name, reason: .httpStatus(code: response.httpStatus?.code ?? 0, body: response.body))
        }
        guard case .object(let reply)? = JSONValue.parse(response.body), case .integer(let code)? = reply["code"] else {
            throw call.invalidResponse(#"expected {"code": ..., "data": ...}"#)
        }
        guard code == 0 else {
            guard case .string(let message)? = reply["msg"] else {
                throw call.invalidResponse("error \(code) without a message")
            }
            throw APIError(api: call.definition.name, reason: .rpcError(code: Int(code), message: message, data: nil))
        }
        return (reply["data"] ?? .null).data
    }
}
