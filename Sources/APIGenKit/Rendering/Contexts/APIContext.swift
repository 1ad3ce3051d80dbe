import APIManifest
import Foundation

/// What `rest.mustache`, `rpc.mustache` and `grpc.mustache` read of every API; each also reads
/// its kind's own context (`RESTContext`, `RPCContext`, `GRPCContext`), in the same object.
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

    init(_ api: APIDescription, access: AccessLevel, manifest: String) {
        let needsFoundation = api.parameters.contains { $0.type.needsFoundation } || api.response.type.needsFoundation
            || api.responseHeaders.contains { $0.type.needsFoundation }
        self.access = SwiftExpression.accessModifier(access)
        imports = switch api.shape {
        case .grpc: ["APIGRPC", "APIRuntime", "SwiftProtobuf"]
        case .rest, .jsonRPC, .customRPC:
            (api.response.decoding.isEventStream ? ["APIEventStreams"] : []) + ["APIRuntime"] + (needsFoundation ? ["Foundation"] : [])
        }
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
    }

    /// The API's template and what it reads: these keys and its kind's, as one object.
    static func template(for api: APIDescription, access: AccessLevel, manifest: String) -> (name: String, context: TemplateValue) {
        let common = APIContext(api, access: access, manifest: manifest).templateValue
        let (name, own): (String, TemplateValue) = switch api.shape {
        case .rest(let rest): ("rest", RESTContext(rest).templateValue)
        case .jsonRPC(let rpc): ("rpc", RPCContext(rpc, isJSONRPC: true).templateValue)
        case .customRPC(let rpc): ("rpc", RPCContext(rpc, isJSONRPC: false).templateValue)
        case .grpc(let grpc): ("grpc", GRPCContext(grpc).templateValue)
        }
        guard case .object(let keys) = common, case .object(let kindKeys) = own else {
            preconditionFailure("a context struct encodes as an object")
        }
        return (name, .object(keys.merging(kindKeys) { _, kinds in kinds }))
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
