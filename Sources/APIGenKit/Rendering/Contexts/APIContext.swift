import APIManifest
import Foundation

/// What `rest.mustache`, `rpc.mustache` and `grpc.mustache` read: one API. The values after the
/// common ones belong to one kind of API each and are absent from the others.
struct APIContext: TemplateContext {
    /// `public `, `package ` or nothing, from `access:`.
    var access: String
    /// The modules the file imports.
    var imports: [String]
    /// The doc comment's lines, from `doc:`.
    var docLines: [String]
    /// Whether `docLines` has any.
    var hasDocLines: Bool
    /// Its manifest's path from the workspace's folder, escaped for a comment.
    var manifest: String
    /// The API's name in its manifest, escaped for a comment.
    var declaredName: String
    /// `<prefix><Name>API`.
    var className: String
    /// The Swift type a call returns.
    var responseType: String
    /// How the reply is read: the `APIRuntime.ResponseDecoding` case name.
    var decoding: String
    /// The API's name, a string literal.
    var nameLiteral: String
    /// The initializer's arguments, in order.
    var parameters: [MemberContext]
    /// Whether the initializer takes arguments (a download's destination aside).
    var hasParameters: Bool
    /// DocC's `- Parameters:` list.
    var parameterDocLines: [String]
    /// Whether the initializer's arguments fit on one line.
    var inlineArguments: Bool
    /// Whether `headers` has any.
    var hasHeaders: Bool
    /// Headers every call sends.
    var headers: [NamedLiteralContext]
    /// Whether `responseHeaders` has any.
    var hasResponseHeaders: Bool
    /// Reply headers read as types.
    var responseHeaders: [MemberContext]
    /// The one-line description the doc comment ends in: a REST API's method and path, an RPC or
    /// gRPC API's method.
    var summary: String?

    // Settings, each absent when the manifest leaves it to the workspace.

    /// The base URL, a string literal.
    var baseURLLiteral: String?
    /// A `Duration` expression.
    var timeout: String?
    /// The frequency policy's case name.
    var frequency: String?
    /// An `APIRuntime.RetryPolicy` expression.
    var retry: String?
    /// An `APIRuntime.RateLimit` expression.
    var rateLimit: String?
    /// The headers that tell calls apart, an array literal.
    var significantHeaders: String?
    /// The API's tags, an array literal.
    var tags: String?
    /// The interceptors it skips, an array literal.
    var skippedInterceptors: String?
    /// `true` or `false`.
    var authenticated: String?
    /// The manifest's `sample:`, an `APIRuntime.StubResponse` expression.
    var sample: String?
    /// Error bodies by status, an array expression.
    var errorResponses: String?
    /// `true` for an RPC method without side effects.
    var safe: String?
    /// The manifest's `cache:`, an `APIRuntime.CacheSettings` expression.
    var cache: String?
    /// The tags whose cached replies a call removes, an array literal.
    var invalidates: String?

    // REST.

    /// The HTTP method, `GET`.
    var method: String?
    /// The `HTTPRequest.Method` case, `get`.
    var methodCase: String?
    /// The path as a comment shows it (REST, and RPC with a path).
    var path: String?
    /// The path, a string literal (REST, and RPC with a path).
    var pathLiteral: String?

    // JSON-RPC and custom RPC.

    /// `JSON-RPC`, or the custom delegate's type.
    var protocolName: String?
    /// The `Wire` case: `jsonRPC` or `customRPC`.
    var wireCase: String?
    /// `APIRuntime.JSONRPCMethod` or `APIRuntime.CustomRPCMethod`.
    var methodType: String?
    /// The custom delegate, made: `CommandEnvelope()`.
    var delegateExpression: String?
    /// The remote method as a comment shows it (RPC and gRPC).
    var rpcMethod: String?
    /// The remote method, a string literal (RPC and gRPC).
    var rpcMethodLiteral: String?
    /// Whether the call awaits no reply.
    var isNotification: Bool?
    /// Whether `envelope` has any.
    var hasEnvelope: Bool?
    /// The custom envelope's fixed fields.
    var envelope: [NamedLiteralContext]?

    // gRPC.

    /// `unary`, `server-streaming`, … for prose.
    var shape: String?
    /// `unary`, `serverStreaming`, …: the `GRPCMethod.Shape` case.
    var shapeCase: String?
    /// The service, `package.Service`, a string literal.
    var serviceLiteral: String?
    /// The method's name, a string literal.
    var methodNameLiteral: String?
    /// The request message's Swift type.
    var requestType: String?
    /// What the initializer takes: the request message, or a stream of them.
    var parametersType: String?
    /// Whether the client sends a stream of messages.
    var clientStreams: Bool?
    /// Whether the server answers with a stream of messages.
    var serverStreams: Bool?
    /// Whether the proto declares the method free of side effects, so that it may be retried.
    var isIdempotent: Bool?

    init(_ api: APIDescription, access: AccessLevel, manifest: String) {
        let needsFoundation = api.parameters.contains { $0.type.needsFoundation } || api.response.type.needsFoundation
            || api.responseHeaders.contains { $0.type.needsFoundation }
        self.access = SwiftExpression.accessModifier(access)
        imports = (api.response.decoding.isEventStream ? ["APIEventStreams"] : []) + ["APIRuntime"] + (needsFoundation ? ["Foundation"] : [])
        docLines = api.docLines
        hasDocLines = !api.docLines.isEmpty
        self.manifest = SwiftLiteral.commentLine(manifest)
        declaredName = SwiftLiteral.commentLine(api.manifestName)
        className = api.className
        responseType = api.response.type.spelling
        decoding = api.response.decoding.rawValue
        nameLiteral = SwiftLiteral.string(api.manifestName)
        parameters = api.parameters.map { MemberContext(parameter: $0, of: api) }
        hasParameters = api.parameters.contains { !$0.isDownloadDestination }
        parameterDocLines = Self.parameterDocLines(api.parameters)
        inlineArguments = api.parameters.count <= inlineArgumentLimit
        hasHeaders = !api.headers.isEmpty
        headers = api.headers.map(NamedLiteralContext.init)
        hasResponseHeaders = !api.responseHeaders.isEmpty
        responseHeaders = api.responseHeaders.map(MemberContext.init(responseHeader:))

        baseURLLiteral = api.baseURL.map(SwiftLiteral.string)
        timeout = api.timeoutSeconds.map { SwiftLiteral.duration(seconds: $0) }
        frequency = api.frequency?.rawValue
        retry = api.retry.map(SwiftExpression.retry)
        rateLimit = api.rateLimit.map(SwiftExpression.rateLimit)
        significantHeaders = api.significantHeaders.map(SwiftExpression.arrayLiteral)
        tags = api.tags.isEmpty ? nil : SwiftExpression.arrayLiteral(api.tags)
        skippedInterceptors = api.skippedInterceptors.isEmpty ? nil : SwiftExpression.arrayLiteral(api.skippedInterceptors)
        authenticated = api.authenticated.map { String($0) }
        sample = api.sample.map(SwiftExpression.sample)
        errorResponses = SwiftExpression.errorResponses(api.errorResponses)
        safe = api.safe && api.kind != .rest ? "true" : nil
        cache = api.cache.map(SwiftExpression.cache)
        invalidates = api.invalidates.isEmpty ? nil : SwiftExpression.arrayLiteral(api.invalidates)

        if let rest = api.rest { describe(rest) }
        if let grpc = api.grpc { describe(grpc) }
        if let rpc = api.rpc { describe(rpc, isJSONRPC: api.kind == .jsonrpc) }
    }

    private mutating func describe(_ rest: RESTDescription) {
        let path = SwiftLiteral.docLines(rest.path).joined()
        method = rest.method.rawValue
        methodCase = rest.method.rawValue.lowercased()
        self.path = path
        pathLiteral = SwiftLiteral.string(rest.path)
        summary = "`\(rest.method.rawValue) \(path)`"
    }

    private mutating func describe(_ grpc: GRPCDescription) {
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
        imports = ["APIGRPC", "APIRuntime", "SwiftProtobuf"]
    }

    private mutating func describe(_ rpc: RPCDescription, isJSONRPC: Bool) {
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

    /// DocC's `- Parameters:` list for the initializer, from the parameters' descriptions.
    private static func parameterDocLines(_ parameters: [ParameterDescription]) -> [String] {
        let documented = parameters.filter { !$0.docLines.isEmpty }
        guard !documented.isEmpty else { return [] }
        return ["- Parameters:"] + documented.flatMap { parameter in
            let name = parameter.swiftName.trimmingCharacters(in: ["`"])
            return ["  - \(name): \(parameter.docLines[0])"] + parameter.docLines.dropFirst().map { "    \($0)" }
        }
    }
}
