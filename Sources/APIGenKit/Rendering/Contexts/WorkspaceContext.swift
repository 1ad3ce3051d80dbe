import APIManifest

/// What `workspace.mustache` reads: the workspace's defaults.
struct WorkspaceContext: TemplateContext {
    /// `public `, `package ` or nothing, from `access:`.
    var access: String
    /// The generated module's name.
    var module: String
    /// The workspace file's path from its folder, escaped for a comment.
    var workspaceFile: String
    /// Whether `headers` has any.
    var hasHeaders: Bool
    /// Headers every call sends.
    var headers: [NamedLiteralContext]
    /// The default frequency policy's case name.
    var frequency: String?
    /// The default retry policy, a Swift expression.
    var retry: String?
    /// The default rate limit, a Swift expression.
    var rateLimit: String?
    /// The default error bodies, an array expression.
    var errorResponses: String?
    /// The defaults' `cache:`, an `APIRuntime.CacheSettings` expression.
    var cache: String?
    /// The default base URL, a string literal.
    var baseURLLiteral: String?
    /// The default timeout, a `Duration` expression.
    var timeout: String?
    /// The cap on connections to one host, a number.
    var maxConnectionsPerHost: String?

    init(_ workspace: WorkspaceDescription, workspaceFile: String) {
        let defaults = workspace.defaults
        access = SwiftExpression.accessModifier(workspace.access)
        module = workspace.module
        self.workspaceFile = workspaceFile
        hasHeaders = !defaults.headers.isEmpty
        headers = defaults.headers.map(NamedLiteralContext.init)
        frequency = defaults.frequency?.rawValue
        retry = defaults.retry.map(SwiftExpression.retry)
        rateLimit = defaults.rateLimit.map(SwiftExpression.rateLimit)
        errorResponses = SwiftExpression.errorResponses(defaults.errorResponses)
        cache = defaults.cache.map(SwiftExpression.cache)
        baseURLLiteral = defaults.baseURL.map(SwiftLiteral.string)
        timeout = defaults.timeoutSeconds.map { SwiftLiteral.duration(seconds: $0) }
        maxConnectionsPerHost = defaults.maxConnectionsPerHost.map { String($0) }
    }
}
