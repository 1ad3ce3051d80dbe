import APIRuntime
import Foundation
import HTTPTypes

/// The RPC delegate of every generated gRPC API.
///
/// A gRPC call travels through the manager like any other: its metadata are the request's header
/// fields, its request message the serialized body, and the reply carries the initial metadata
/// as header fields, the trailing metadata as trailer fields and the status as `grpcStatus` and
/// `grpcMessage`. Interceptors therefore see gRPC calls in the same terms as REST and JSON-RPC
/// ones; this delegate turns a non-OK status into `APIError.Reason.grpcStatus` after they have run.
public struct GRPCProtocol: RPCDelegate {
    public init() {}

    public var kind: CallKind { .grpc }

    /// grpc-swift's HTTP/2 transport, unless the manager's configuration names a `grpcTransport`.
    public var defaultTransport: TransportFactory? { .grpc }

    public func wrap(_ request: inout APIRequest, for call: RPCCall) throws(APIError) {
        // The transport frames messages itself (length-prefixed, over HTTP/2); nothing to add.
    }

    public func unwrap(_ response: APIResponse, for call: RPCCall) throws(APIError) -> Data {
        if let status = response.grpcStatus, status != .ok {
            throw APIError(api: call.definition.name, reason: .grpcStatus(code: status, message: response.grpcMessage ?? ""))
        }
        return response.body
    }
}
