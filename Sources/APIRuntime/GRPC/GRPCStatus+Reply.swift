extension APIResponse {
    /// The status for logs and metrics: the HTTP code, or gRPC's (`grpc UNAVAILABLE`) for gRPC replies.
    public var statusSummary: String {
        grpcStatus.map { "grpc \($0)" } ?? "\(status.code)"
    }

    /// A 2xx status, and for gRPC an OK (or not yet known) status.
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
