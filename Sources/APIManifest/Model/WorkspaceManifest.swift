/// The workspace file (`apis/workspace.yaml`): what to generate, where, and the defaults every API inherits.
///
/// Paths are as written; the loader resolves them against the workspace file's folder.
public struct WorkspaceManifest: Sendable {
    /// The workspace file's own path.
    public var file: String
    /// Name of the Swift module the generated code lives in.
    public var module: Located<String>
    /// Put in front of every generated type name (`EX` makes `EXGetUserAPI`).
    public var prefix: Located<String>?
    /// The generated folder. apigen owns it: files it generated earlier and no longer needs are removed.
    public var output: Located<String>
    /// A folder of templates overriding the built-in ones, file by file.
    public var templates: Located<String>?
    /// The hand-written Swift of the generated module, where custom RPC delegates are declared.
    /// Defaults to the folder holding `output`.
    public var sources: Located<String>?
    /// Whether models' fields are `var` (editable) rather than `let`, unless a model says.
    public var mutableModels: Located<Bool>?
    /// The access level of the generated declarations; `public` when absent.
    public var access: Located<AccessLevel>?
    public var defaults: Defaults

    public struct Defaults: Sendable {
        public var baseURL: Located<String>?
        public var timeout: Located<Double>?
        public var headers: [Header] = []
        public var maxConnectionsPerHost: Located<Int>?
        public var frequency: Located<FrequencyPolicy>?
        public var retry: RetryDeclaration?
        public var rateLimit: RateLimitDeclaration?
        /// Error bodies every API declares (`responses: { default: Problem }`).
        public var responses: [StatusResponseDeclaration] = []
        /// How the workspace's cacheable APIs cache their replies.
        public var cache: CacheDeclaration?

        public init() {}
    }
}

/// A fixed header an API or the workspace sends with every call.
public struct Header: Sendable, Hashable {
    public var name: Located<String>
    public var value: Located<String>
}

/// `retry:`: how failed calls are sent again. `retry: none` turns retries off.
public struct RetryDeclaration: Sendable {
    public var location: SourceLocation
    public var isNone: Bool
    public var attempts: Located<Int>?
    public var delay: Located<Double>?
    public var maxDelay: Located<Double>?
    public var statuses: [Located<Int>]
    public var nonIdempotent: Located<Bool>?
}

/// `rateLimit:`: at most `calls` calls every `per` seconds.
public struct RateLimitDeclaration: Sendable {
    public var location: SourceLocation
    public var calls: Located<Int>
    public var per: Located<Double>
    public var scope: Located<RateLimitScope>?
    public var behavior: Located<RateLimitBehavior>?
}

/// `cache:`: how replies are kept. `cache: http` (every value nil) follows the server's headers.
public struct CacheDeclaration: Sendable {
    public var location: SourceLocation
    /// Seconds a reply is fresh for; nil follows the server's headers.
    public var ttl: Located<Int>?
    public var staleWhileRevalidate: Located<Int>?
    public var staleIfError: Located<Int>?
    public var revalidate: Located<Bool>?
    public var scope: Located<CacheScope>?
}

/// `sample:`: what the API answers when the manager answers from samples.
public struct SampleDeclaration: Sendable {
    public var location: SourceLocation
    public var status: Located<Int>?
    /// The body as JSON text.
    public var body: Located<String>?
    public var delay: Located<Double>?
}
