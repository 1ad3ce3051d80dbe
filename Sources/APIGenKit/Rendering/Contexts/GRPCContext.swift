/// What `grpc.mustache` reads besides `APIContext`: the method, its messages and its shape.
struct GRPCContext: TemplateContext {
    /// `unary`, `server-streaming`, … for prose.
    var shape: String
    /// `unary`, `serverStreaming`, …: the `GRPCMethod.Shape` case.
    var shapeCase: String
    /// The remote method, `package.Service/Method`, as a comment shows it.
    var rpcMethod: String
    /// The remote method, a string literal.
    var rpcMethodLiteral: String
    /// The service, `package.Service`, a string literal.
    var serviceLiteral: String
    /// The method's name, a string literal.
    var methodNameLiteral: String
    /// The request message's Swift type.
    var requestType: String
    /// What the initializer takes: the request message, or a stream of them.
    var parametersType: String
    /// Whether the client sends a stream of messages.
    var clientStreams: Bool
    /// Whether the server answers with a stream of messages.
    var serverStreams: Bool
    /// Whether the proto declares the method free of side effects, so that it may be retried.
    var isIdempotent: Bool
    /// The one-line description the doc comment ends in: the shape and the method.
    var summary: String

    init(_ grpc: GRPCDescription) {
        let method = SwiftLiteral.docLines(grpc.method).joined()
        shape = grpc.shape
        rpcMethod = method
        rpcMethodLiteral = SwiftLiteral.string(grpc.method)
        // `package.Service/Method`, validated against the protos: the service is all before the last `/`.
        let slash = grpc.method.lastIndex(of: "/") ?? grpc.method.startIndex
        serviceLiteral = SwiftLiteral.string(String(grpc.method[..<slash]))
        methodNameLiteral = SwiftLiteral.string(String(grpc.method[slash...].dropFirst()))
        requestType = grpc.requestType
        parametersType = SwiftExpression.grpcParameters(grpc)
        clientStreams = grpc.clientStreams
        serverStreams = grpc.serverStreams
        isIdempotent = grpc.isIdempotent
        shapeCase = switch (grpc.clientStreams, grpc.serverStreams) {
        case (false, false): "unary"
        case (true, false): "clientStreaming"
        case (false, true): "serverStreaming"
        case (true, true): "bidirectionalStreaming"
        }
        summary = "gRPC \(grpc.shape) method `\(method)`"
    }
}
