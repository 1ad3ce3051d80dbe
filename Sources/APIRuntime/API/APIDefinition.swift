import APIWireFormat
import HTTPTypes

/// What an API is, independent of any one call: its name, how it travels on the wire, and its
/// settings.
///
/// Generated code declares one per API class as a `static let definition`; settings it leaves
/// nil fall back to the workspace defaults, and a call's options can override them again.
///
/// An immutable class rather than a struct: every API instance holds its definition, and a
/// reference copies as one retain where a struct of sixteen fields is an outlined copy and
/// destroy in each generated file (docs/ARCHITECTURE.md). Being immutable, it keeps a value's
/// meaning.
public final class APIDefinition: Sendable {
    /// The API's name as its manifest declares it (`GetUser`); errors, logs and metrics use it.
    public let name: String
    /// The kind of call, and what addresses it on its server.
    public let wire: Wire
    /// The API's own base URL; nil sends it to its workspace's.
    public let baseURL: String?
    /// Headers of every call, after the workspace's; gRPC metadata for gRPC APIs.
    public let headers: [(name: String, value: String)]
    /// How long a call may take in all; nil falls back to the workspace's, then the manager's.
    public let timeout: Duration?
    /// What to do with a call identical to one in flight; nil falls back to the workspace's, then the manager's.
    public let frequency: FrequencyPolicy?
    /// How failed calls are retried; nil falls back to the workspace's, then the manager's.
    public let retry: RetryPolicy?
    /// How often calls may be made; nil falls back to the workspace's, then the manager's.
    public let rateLimit: RateLimit?
    /// The only headers whose values make two calls different for the frequency policy; nil (the
    /// default) counts every header the request carries, credentials included.
    public let significantHeaders: [String]?
    /// Groups to cancel together: `APIManager.cancel(tag:)`.
    public let tags: [String]
    /// Names of global interceptors this API goes without (a sign-in call skips `authentication`).
    public let skippedInterceptors: [String]
    /// Whether the authentication interceptor's token goes with this API's calls, as its manifest
    /// says (`authenticated:`): true to the origin it declares even when that is not its
    /// workspace's (one of the app's own servers elsewhere), false never; nil when the manifest
    /// does not say, and the interceptor's `hosts` decide.
    public let authenticated: Bool?
    /// What the API answers when the manager answers from samples instead of the network.
    public let sample: StubResponse?
    /// The bodies of error statuses the API declares (`responses:`), before the workspace's.
    public let errorResponses: [ErrorResponse]
    /// Whether the manifest marks the RPC method as free of side effects (`safe: true`, or a gRPC
    /// method the proto declares `NO_SIDE_EFFECTS`), so that its replies may be cached.
    public let safe: Bool
    /// How the API's replies are cached; nil falls back to the workspace's, and the API is
    /// cached only if `isCacheable`.
    public let cache: CacheSettings?
    /// Tags whose cached replies a successful call of this API removes (`invalidates:`): a
    /// mutation drops what it made stale.
    public let invalidates: [String]
    /// The defaults of the API's workspace.
    public let defaults: APIDefaults

    /// Whether a call has no side effects, and so may be answered from the cache: a REST `GET`
    /// or `HEAD`, or an RPC method marked `safe`; never a notification.
    public var isCacheable: Bool {
        switch wire {
        case .http(let method, _): method == .get || method == .head
        default: safe && !wire.isNotification
        }
    }

    /// The base URL the manifest declares, the API's own or else its workspace's.
    public var declaredBaseURL: String? { baseURL ?? defaults.baseURL }
    /// REST, JSON-RPC, a custom RPC protocol, or gRPC.
    public var kind: CallKind { wire.kind }
    /// The HTTP method calls are sent with (POST for every RPC protocol).
    public var method: HTTPRequest.Method { wire.method }
    /// The path template after the base URL, with `{name}` placeholders.
    public var path: String { wire.path }

    /// `path`, split once into its fixed text and placeholders.
    let pathTemplate: PathTemplate
    /// `declaredBaseURL`, parsed once; nil when none is declared or it is not a base URL.
    let parsedBaseURL: BaseURL?
    /// The origin of `declaredBaseURL` as a URL names it, worked out once: the manifest's own say
    /// of where its server is (`BaseURLResolver.declaredOrigins` maps it as the manager's
    /// overrides say, for interceptors).
    let declaredOrigin: Origin?
    /// The workspace's headers (except for gRPC, whose metadata come from the API alone) then the
    /// API's, a later one replacing an earlier one of the same name, checked once here rather
    /// than on every call; headers that frame the message are the transport's, and left out.
    let fixedHeaderFields: HTTPFields
    /// The first of those header names that is not a valid field name, reported by every call.
    let invalidHeaderName: String?

    /// A REST endpoint with no settings of its own. The initializer below gives the same
    /// definition, but a call that leaves out its defaulted arguments makes the calling file call
    /// a default-argument function of this module for each (docs/ARCHITECTURE.md).
    public convenience init(name: String, method: HTTPRequest.Method, path: String, defaults: APIDefaults) {
        self.init(
            name: name, wire: .http(method, path: path), baseURL: nil, headers: [], timeout: nil, frequency: nil,
            retry: nil, rateLimit: nil, significantHeaders: nil, tags: [], skippedInterceptors: [], authenticated: nil, sample: nil,
            errorResponses: [], safe: false, cache: nil, invalidates: [], defaults: defaults
        )
    }

    /// An API with every setting its manifest declares; what it leaves nil falls back to `defaults`, then the manager's configuration.
    public init(
        name: String,
        wire: Wire,
        baseURL: String? = nil,
        headers: [(name: String, value: String)] = [],
        timeout: Duration? = nil,
        frequency: FrequencyPolicy? = nil,
        retry: RetryPolicy? = nil,
        rateLimit: RateLimit? = nil,
        significantHeaders: [String]? = nil,
        tags: [String] = [],
        skippedInterceptors: [String] = [],
        authenticated: Bool? = nil,
        sample: StubResponse? = nil,
        errorResponses: [ErrorResponse] = [],
        safe: Bool = false,
        cache: CacheSettings? = nil,
        invalidates: [String] = [],
        defaults: APIDefaults
    ) {
        self.name = name
        self.wire = wire
        self.pathTemplate = PathTemplate(wire.path)
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
        self.frequency = frequency
        self.retry = retry
        self.rateLimit = rateLimit
        self.significantHeaders = significantHeaders
        self.tags = tags
        self.skippedInterceptors = skippedInterceptors
        self.authenticated = authenticated
        self.sample = sample
        self.errorResponses = errorResponses
        self.safe = safe
        self.cache = cache
        self.invalidates = invalidates
        self.defaults = defaults
        self.parsedBaseURL = (baseURL ?? defaults.baseURL).flatMap(BaseURL.init)
        self.declaredOrigin = Origin(baseURL ?? defaults.baseURL)
        var fields = HTTPFields()
        var invalid: String?
        for header in (wire.kind == .grpc ? [] : defaults.headers) + headers {
            guard let name = HTTPField.Name(header.name) else {
                invalid = invalid ?? header.name
                continue
            }
            if !name.isFraming { fields[name] = header.value }
        }
        self.fixedHeaderFields = fields
        self.invalidHeaderName = invalid
    }
}
