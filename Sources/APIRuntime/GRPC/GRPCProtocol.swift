import Foundation

/// The protocol of every gRPC API (`Wire.grpc`): the transport frames the messages and reports
/// how the server ended the call; after the interceptors have seen the reply, a status other
/// than OK becomes `APIError.Reason.grpcStatus`, with the server's message.
public struct GRPCProtocol: RPCDelegate {
    public init() {}

    public func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError) {
        // The transport frames messages itself (length-prefixed, over HTTP/2); nothing to add.
    }

    public func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data {
        if case .grpc(let code, let message) = response.status, code != .ok {
            throw APIError(api: call.definition.name, reason: .grpcStatus(code: code, message: message))
        }
        return response.body
    }
}
