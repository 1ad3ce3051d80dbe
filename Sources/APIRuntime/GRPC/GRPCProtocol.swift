import Foundation

/// The protocol of every gRPC API (`Wire.grpc`): the transport frames the messages and reports
/// how the server ended the call; after the interceptors have seen the reply, a status other
/// than OK becomes `APIError.Reason.grpcStatus`, with the server's message.
public struct GRPCProtocol: RPCDelegate {
    /// The gRPC protocol; generated gRPC APIs use it through their definition's wire.
    public init() {}

    /// false: the transport pairs each reply with its call.
    public var usesRequestIDs: Bool { false }

    /// Leaves the request as it is: the transport frames the messages.
    public func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError) {
        // The transport frames messages itself (length-prefixed, over HTTP/2); nothing to add.
    }

    /// The reply's message bytes; a status other than OK throws `APIError.Reason.grpcStatus`.
    public func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data {
        if case .grpc(let code, let message) = response.status, code != .ok {
            throw APIError(api: call.definition.name, reason: .grpcStatus(code: code, message: message))
        }
        return response.body
    }

    /// A call ended with `OK` and one message, `result`.
    public func reply(with result: Data, for call: RPCCall) -> APIResponse {
        APIResponse(status: .grpc(.ok, message: ""), body: result)
    }
}
