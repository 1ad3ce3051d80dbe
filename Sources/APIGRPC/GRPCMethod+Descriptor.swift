import APIRuntime
import GRPCCore

extension GRPCMethod {
    /// A method of a gRPC service, as its proto declares it: called over grpc-swift's HTTP/2
    /// transport unless the manager's configuration names another, with grpc-swift's descriptor
    /// of the method made once, here.
    ///
    /// ```swift
    /// wire: .grpc(GRPCMethod(service: "helloworld.Greeter", method: "SayHello", shape: .unary))
    /// ```
    public init(service: String, method: String, shape: Shape, isIdempotent: Bool = false) {
        let descriptor: (any Sendable)? = if #available(gRPCSwift 2.0, *) {
            MethodDescriptor(fullyQualifiedService: service, method: method)
        } else {
            nil
        }
        self.init(service: service, name: method, shape: shape, isIdempotent: isIdempotent, defaultTransport: .grpc, descriptor: descriptor)
    }
}
