extension APIError {
    /// The gRPC status this error carries, if it came from a gRPC server.
    public var grpcStatus: GRPCStatusCode? {
        if case .grpcStatus(let code, _) = reason { return code }
        return nil
    }
}
