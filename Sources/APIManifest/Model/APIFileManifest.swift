/// One API file: the models (`types:`) and APIs (`apis:`) it declares.
public struct APIFileManifest: Sendable {
    public var file: String
    public var types: [TypeDeclaration]
    public var apis: [APIDeclaration]
    /// The file's `grpc:` block: the protos its gRPC APIs come from, and where they are served.
    public var grpc: GRPCSettings?
}

/// `grpc:` in an API file.
public struct GRPCSettings: Sendable {
    public var location: SourceLocation
    /// The .proto files to compile, as found under `importPaths`.
    public var protos: [Located<String>]
    /// Folders protoc searches for the protos and their imports, relative to the manifest.
    /// Empty means the manifest's own folder.
    public var importPaths: [Located<String>]
    /// `host:port` of the server.
    public var target: Located<String>?
    /// TLS (`grpcs://`) unless `tls: false` (plaintext HTTP/2, `grpc://`).
    public var tls: Located<Bool>?
    /// Seconds every call of the file may take, streams included, unless an API says otherwise.
    public var deadline: Located<Double>?
    /// Metadata every call of the file sends.
    public var metadata: [Header]
}

/// What only a gRPC API has: the method it calls, or the service whose every method it calls.
public struct GRPCEndpoint: Sendable {
    /// `package.Service/Method`.
    public var rpc: Located<String>?
    /// `package.Service`: one API per method, each named after its method.
    public var service: Located<String>?
    public var metadata: [Header]
}

/// A model declared under `types:`: a struct with fields, or a string enum.
public struct TypeDeclaration: Sendable {
    public var name: Located<String>
    public var description: Located<String>?
    public var shape: Shape
    /// `mutable:` of a model: false makes its fields `let`; nil inherits `mutableModels:`.
    public var mutable: Located<Bool>?
    /// `additionalProperties: true` of a model: members it does not declare are kept.
    public var additionalProperties: Located<Bool>?

    public enum Shape: Sendable {
        case model(fields: [FieldDeclaration])
        case enumeration(EnumDeclaration)
        /// `oneOf:`: a value that is one of several types.
        case union(UnionDeclaration)
        /// `swift:`: a type the app's hand-written code declares; nothing is generated for it.
        case external(Located<String>)
    }
}

/// `oneOf:` of a type: its alternatives, and how a value says which one it is.
public struct UnionDeclaration: Sendable {
    public var alternatives: [Located<TypeExpression>]
    /// The JSON property every alternative has whose value names the alternative; nil tries
    /// each alternative in order.
    public var discriminator: Located<String>?
    /// Discriminator values by alternative, when they are not the alternatives' names.
    public var mapping: [(value: Located<String>, type: Located<String>)]
}

/// `enum:` of a type: its cases, the type of their raw values, and whether it is frozen.
public struct EnumDeclaration: Sendable {
    public var cases: [EnumCaseDeclaration]
    /// `type:` (`Int`, `Int32`, `Int64`); nil is `String`.
    public var rawType: Located<String>?
    /// `frozen: true`: no value but the declared ones decodes. Otherwise an unknown value
    /// decodes to the enum's `unknown` case.
    public var frozen: Located<Bool>?
}

public struct FieldDeclaration: Sendable {
    /// The Swift property name.
    public var name: Located<String>
    public var type: Located<TypeExpression>
    /// The JSON key, when it differs from the Swift name.
    public var jsonKey: Located<String>?
    public var description: Located<String>?
    /// `default:`: the value when the JSON leaves the field out, as written.
    public var defaultValue: Located<String>?
    /// `format:` of a `Date` field: how it is written in JSON.
    public var format: Located<DateFormat>?
}

public struct EnumCaseDeclaration: Sendable {
    /// The Swift case name.
    public var name: Located<String>
    /// The value on the wire, as written: text, or an integer's digits for an integer enum.
    public var rawValue: Located<String>
}

/// The body a reply with a status carries: `404: NotFound` under `responses:`.
public struct StatusResponseDeclaration: Sendable {
    /// The status code; nil for `default`, every error status without an entry of its own.
    public var status: Located<Int?>
    /// nil for `none`: the status has no body.
    public var type: Located<TypeExpression>?

    public init(status: Located<Int?>, type: Located<TypeExpression>?) {
        self.status = status
        self.type = type
    }
}

/// A reply that is a stream of values, each of `type`.
public struct ResponseStreamDeclaration: Sendable {
    public enum Format: String, Sendable {
        /// Server-Sent Events (`text/event-stream`), each event's data of the type.
        case events
        /// JSON Lines, one value of the type per line.
        case jsonLines
    }

    public var format: Located<Format>
    public var type: Located<TypeExpression>
}

/// An API declared under `apis:`.
public struct APIDeclaration: Sendable {
    public var name: Located<String>
    public var kind: Located<APIKind>
    public var description: Located<String>?
    public var parameters: [ParameterDeclaration]
    /// nil when the API returns nothing (`response: none` or no `response:` key), or a stream.
    public var response: Located<TypeExpression>?
    /// A reply of events (`response: { events: Message }` or `{ jsonLines: Entry }`).
    public var responseStream: ResponseStreamDeclaration?
    /// Bodies by status (`responses: { 200: User, 404: NotFound }`).
    public var responses: [StatusResponseDeclaration] = []
    /// The type of an RPC error object's `data` member (`errorData: ErrorDetails`).
    public var errorData: Located<TypeExpression>?
    /// Reply headers read as types (`responseHeaders: { etag: { type: String, name: ETag } }`),
    /// in the shape of parameters: the Swift name, the type, and the name on the wire.
    public var responseHeaders: [ParameterDeclaration] = []
    public var headers: [Header]
    public var timeout: Located<Double>?
    public var frequency: Located<FrequencyPolicy>?
    public var retry: RetryDeclaration?
    public var rateLimit: RateLimitDeclaration?
    /// nil when the manifest does not say: every header counts.
    public var significantHeaders: [Located<String>]?
    public var tags: [Located<String>]
    public var skipInterceptors: [Located<String>]
    /// Whether the authentication interceptor's token goes with this API's calls
    /// (`authenticated: true` for one of the app's own servers on another host); nil when the
    /// manifest does not say: only when the API's origin is its workspace's.
    public var authenticated: Located<Bool>? = nil
    public var sample: SampleDeclaration?
    /// How the API's replies are cached (`cache:`).
    public var cache: CacheDeclaration? = nil
    /// Tags whose cached replies a successful call removes (`invalidates:`).
    public var invalidates: [Located<String>] = []
    /// `safe: true`: the RPC method has no side effects, and may be cached.
    public var safe: Located<Bool>? = nil
    /// A gRPC method's `example:`: its request message in proto's JSON, as JSON text.
    public var example: Located<String>? = nil
    public var baseURL: Located<String>?
    /// Whether `parameters:` was written as a list (order explicit) rather than a mapping.
    public var parametersAreListed: Located<Bool>?
    /// What only a REST API has.
    public var rest: RESTEndpoint?
    /// What only an RPC API (JSON-RPC or a custom delegate) has.
    public var rpc: RPCEndpoint?
    /// What only a gRPC API has.
    public var grpc: GRPCEndpoint?
}

public struct RPCEndpoint: Sendable {
    /// The endpoint: an absolute URL, or a path joined to the base URL.
    public var url: Located<String>
    /// The remote method's name.
    public var method: Located<String>
    public var structure: Located<ParameterStructure>?
    public var isNotification: Located<Bool>?
    /// Extra members of the envelope: a name and its value as JSON text.
    public var envelope: [(name: Located<String>, json: Located<String>)]
    /// The Swift type wrapping calls of `kind: rpc`.
    public var delegate: Located<String>?
}

public struct RESTEndpoint: Sendable {
    public var method: Located<HTTPMethodName>
    public var path: Located<String>
    /// How `in: body` parameters are encoded (`body: json | form | multipart`).
    public var encoding: Located<BodyEncoding>?
    /// The whole body as one argument (`body: User`, `body: bytes`); nil when parameters make it.
    public var wholeBody: WholeBodyDeclaration?
}

/// A body that is one value: `body: User` (JSON) or `body: bytes` (any bytes).
public struct WholeBodyDeclaration: Sendable {
    /// The value's type; nil for `bytes`.
    public var type: Located<TypeExpression>?
    /// The `Content-Type` of `bytes`.
    public var contentType: Located<String>?
    /// The Swift argument name; `body` unless given.
    public var name: Located<String>?
    public var description: Located<String>?
    /// Where `body:` is written.
    public var location: SourceLocation
}

public struct ParameterDeclaration: Sendable {
    /// The Swift argument name.
    public var name: Located<String>
    public var type: Located<TypeExpression>
    /// Where it travels; nil means "infer it" (path if the path names it, else query or body by method).
    public var location: Located<ParameterLocation>?
    /// The name on the wire, when it differs from the Swift name.
    public var wireName: Located<String>?
    public var description: Located<String>?
    /// `default:`: the initializer argument's default value, as written.
    public var defaultValue: Located<String>? = nil
    /// `format:` of a `Date` parameter: how it is written on the wire.
    public var format: Located<DateFormat>? = nil
    /// `example:`: a value the parameter may take, as JSON text (what `apigen verify` sends).
    public var example: Located<String>? = nil
}
