import Foundation
import HTTPTypes

/// The RPC delegate of every generated gRPC API.
///
/// A gRPC call travels through the manager like any other: its metadata are the request's header
/// fields, its request message the serialized body, and the reply carries the initial metadata
/// as header fields and the trailing metadata, `grpc-status` and `grpc-message` included, as
/// trailer fields, exactly as they are on the HTTP/2 wire. Interceptors therefore see gRPC calls
/// in the same terms as REST and JSON-RPC ones; this delegate turns a non-OK status into
/// `APIError.Reason.grpcStatus` after they have run.
public struct GRPCProtocol: RPCDelegate {
    public init() {}

    public var kind: String { "grpc" }

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

extension HTTPField.Name {
    package static let grpcStatus = HTTPField.Name("grpc-status")!
    package static let grpcMessage = HTTPField.Name("grpc-message")!
}

extension APIResponse {
    /// The gRPC status of a gRPC reply (its `grpc-status` trailer); nil for other protocols, and
    /// for a stream whose trailers have not arrived yet.
    public var grpcStatus: GRPCStatusCode? {
        // The first `grpc-status` field, found by a scan: `HTTPFields`' subscript joins the values
        // of every field of that name through a generic `joined`, 1 % of a call's CPU on loopback.
        trailerFields.first { $0.name == .grpcStatus }.flatMap { Int($0.value) }.map(GRPCStatusCode.init(rawValue:))
    }

    /// The status message of a gRPC reply (its `grpc-message` trailer, percent-decoded).
    public var grpcMessage: String? {
        trailerFields[.grpcMessage].map { $0.removingPercentEncoding ?? $0 }
    }
}

extension APIResponse {
    /// The status for logs and metrics: the HTTP code, or gRPC's (`grpc UNAVAILABLE`) for gRPC replies.
    public var statusSummary: String {
        grpcStatus.map { "grpc \($0)" } ?? "\(status.code)"
    }

    /// A 2xx status, and for gRPC an OK (or not yet known) `grpc-status`.
    public var isSuccess: Bool {
        status.kind == .successful && (grpcStatus ?? .ok) == .ok
    }
}

extension APIError {
    /// The gRPC status this error carries, if it came from a gRPC server.
    public var grpcStatus: GRPCStatusCode? {
        if case .grpcStatus(let code, _) = reason { return code }
        return nil
    }
}
