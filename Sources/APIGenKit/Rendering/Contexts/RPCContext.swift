/// What `rpc.mustache` reads besides `APIContext`: a JSON-RPC or custom RPC method and its
/// envelope.
struct RPCContext: TemplateContext {
    /// `JSON-RPC`, or the custom delegate's type.
    var protocolName: String
    /// The `Wire` case: `jsonRPC` or `customRPC`.
    var wireCase: String
    /// `APIRuntime.JSONRPCMethod` or `APIRuntime.CustomRPCMethod`.
    var methodType: String
    /// The custom delegate, made: `CommandEnvelope()`; absent for JSON-RPC.
    var delegateExpression: String?
    /// The remote method as a comment shows it.
    var rpcMethod: String
    /// The remote method, a string literal.
    var rpcMethodLiteral: String
    /// The endpoint's path as a comment shows it; absent when the base URL is the endpoint.
    var path: String?
    /// The endpoint's path, a string literal; absent when the base URL is the endpoint.
    var pathLiteral: String?
    /// Whether the call awaits no reply.
    var isNotification: Bool
    /// Whether `envelope` has any.
    var hasEnvelope: Bool
    /// The custom envelope's fixed fields.
    var envelope: [NamedLiteralContext]
    /// The one-line description the doc comment ends in: the protocol, the method and its path.
    var summary: String

    init(_ rpc: RPCDescription, isJSONRPC: Bool) {
        let method = SwiftLiteral.docLines(rpc.method).joined()
        let protocolName = isJSONRPC ? "JSON-RPC" : rpc.delegateType
        self.protocolName = protocolName
        wireCase = isJSONRPC ? "jsonRPC" : "customRPC"
        methodType = isJSONRPC ? "APIRuntime.JSONRPCMethod" : "APIRuntime.CustomRPCMethod"
        delegateExpression = isJSONRPC ? nil : SwiftExpression.delegate(rpc)
        rpcMethod = method
        rpcMethodLiteral = SwiftLiteral.string(rpc.method)
        isNotification = rpc.isNotification
        if !rpc.path.isEmpty {
            path = SwiftLiteral.docLines(rpc.path).joined()
            pathLiteral = SwiftLiteral.string(rpc.path)
        }
        let place = path.map { " at `\($0)`" } ?? ""
        summary = "\(protocolName) \(rpc.isNotification ? "notification" : "method") `\(method)`\(place)"
        hasEnvelope = !rpc.envelope.isEmpty
        envelope = rpc.envelope.map { field in
            NamedLiteralContext(nameLiteral: SwiftLiteral.string(field.name), valueLiteral: SwiftLiteral.jsonValue(field.json))
        }
    }
}
