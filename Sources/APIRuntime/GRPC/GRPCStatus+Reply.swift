import Foundation
import HTTPTypes

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
