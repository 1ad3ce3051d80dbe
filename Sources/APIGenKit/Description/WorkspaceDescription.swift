import APIManifest
import Foundation

/// The protocol-neutral description of everything a workspace generates: Swift names, Swift types
/// and wire shape, all decided. Templates only lay it out.
public struct WorkspaceDescription: Sendable {
    public var module: String
    /// The workspace file as the user named it, for "generated from" headers.
    public var workspaceFile: String
    public var outputDirectory: URL
    public var templatesDirectory: URL?
    /// The access level of every generated declaration.
    public var access: AccessLevel = .public
    public var defaults: DefaultsDescription
    public var models: [ModelDescription]
    public var apis: [APIDescription]
    /// The protos' messages, from protoc-gen-swift (`Protos/*.pb.swift`).
    public var protoSources: [GeneratedFile] = []
    /// The protos' messages and enums as their fields travel, for reading replies on the wire.
    public var protoShapes = ProtoShapes()
}

public struct DefaultsDescription: Sendable {
    public var baseURL: String?
    public var timeoutSeconds: Double?
    public var headers: [HeaderDescription]
    public var maxConnectionsPerHost: Int?
    public var frequency: FrequencyPolicy?
    public var retry: RetryDescription?
    public var rateLimit: RateLimitDescription?
    public var errorResponses: [ErrorBodyDescription] = []
    public var cache: CacheDescription?
}

/// `cache:`, checked: `http` when every value is nil.
public struct CacheDescription: Sendable, Equatable {
    public var ttl: Int?
    public var staleWhileRevalidate: Int?
    public var staleIfError: Int?
    public var revalidate: Bool?
    public var scope: CacheScope?
}

/// An error status's body: `404: NotFound` (or `default: Problem`) under `responses:`.
public struct ErrorBodyDescription: Sendable, Equatable {
    /// nil for `default`.
    public var status: Int?
    /// The model's Swift name.
    public var swiftType: String
}

public struct RetryDescription: Sendable, Equatable {
    /// `retry: none`: no retries, whatever the workspace or manager say.
    public var isNone: Bool
    public var attempts: Int?
    public var delaySeconds: Double?
    public var maxDelaySeconds: Double?
    public var statuses: [Int]?
    public var nonIdempotent: Bool
}

public struct RateLimitDescription: Sendable, Equatable {
    public var calls: Int
    public var perSeconds: Double
    public var scope: RateLimitScope?
    public var behavior: RateLimitBehavior?
}

public struct SampleDescription: Sendable, Equatable {
    public var status: Int
    public var json: String?
    public var delaySeconds: Double?
}

public struct HeaderDescription: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A Swift type expression with the facts templates and encoders need about it.
public struct SwiftType: Sendable, Equatable {
    /// The type as Swift spells it: `[User]?`.
    public var spelling: String
    public var isOptional: Bool
    /// Whether it mentions Date, URL, UUID or Data, which need Foundation.
    public var needsFoundation: Bool
    /// The type as the manifest wrote it; nil for the types the generator adds (`HTTPBody`,
    /// `NoContent`, a stream of events).
    public var expression: TypeExpression? = nil

    /// The type an optional wraps (`[User]` for `[User]?`); the type itself when not optional.
    public var unwrappedSpelling: String {
        isOptional && spelling.hasSuffix("?") ? String(spelling.dropLast()) : spelling
    }
}

public struct ModelDescription: Sendable {
    public var manifestName: String
    /// Where the manifest declares it, for diagnostics about what it generates.
    public var declaredAt: SourceLocation
    public var swiftName: String
    public var sourceFile: String
    /// The generated file it goes in with the rest of its manifest's types.
    public var generatedPath: String
    public var docLines: [String]
    public var shape: Shape
    /// A model's fields are `var`, so a fetched value can be changed and sent back; `let` where
    /// the model says `mutable: false` (or the workspace `mutableModels: false`).
    public var isMutable: Bool = true
    /// Some `responses:` declares it as an error body, so it conforms to `Error`.
    public var isErrorBody = false
    /// `additionalProperties: true`: members the model does not declare are kept.
    public var keepsAdditionalProperties = false

    public enum Shape: Sendable {
        case structure(fields: [FieldDescription])
        case enumeration(EnumDescription)
        case union(UnionDescription)
    }

    /// Whether Swift's derived `Decodable` reads the model as its manifest says: not when a
    /// field has a default or a Unix-time date, or the model keeps members it does not declare.
    public var derivesCoding: Bool {
        guard case .structure(let fields) = shape else { return true }
        return !keepsAdditionalProperties && fields.allSatisfy { $0.defaultLiteral == nil && $0.dateFormat == .iso8601 }
    }
}

extension [ModelDescription] {
    /// The types by the manifest declaring them, one generated file each, in declaration order
    /// (a manifest's types are consecutive).
    var byManifest: [ArraySlice<ModelDescription>] {
        var groups: [ArraySlice<ModelDescription>] = []
        var start = startIndex
        while start < endIndex {
            let manifest = self[start].sourceFile
            let end = self[start...].firstIndex { $0.sourceFile != manifest } ?? endIndex
            groups.append(self[start..<end])
            start = end
        }
        return groups
    }
}

public struct FieldDescription: Sendable {
    public var swiftName: String
    public var jsonKey: String
    public var type: SwiftType
    public var docLines: [String]
    /// The value when the JSON leaves the field out, as a Swift expression.
    public var defaultLiteral: String? = nil
    public var dateFormat: DateFormat = .iso8601
    /// Where the manifest declares it, for reports about its values (`apigen verify`).
    public var declaredAt: SourceLocation? = nil
    /// `default:`, as JSON text: what the generated initializer fills in, and so what `apigen
    /// verify` sends for a field its example leaves out.
    public var defaultJSON: String? = nil
}

/// `oneOf:`: an enum with one case per alternative.
public struct UnionDescription: Sendable {
    public struct Alternative: Sendable {
        /// The case: the alternative's manifest name in lower camel case.
        public var caseName: String
        public var type: SwiftType
        /// The discriminator's value that names this alternative.
        public var discriminatorValue: String?
    }

    public var alternatives: [Alternative]
    /// The JSON key every alternative has whose value names it; nil tries each in order.
    public var discriminator: String?
}

public struct EnumDescription: Sendable {
    public var cases: [EnumCaseDescription]
    /// `String`, `Int`, `Int32` or `Int64`.
    public var rawType: String
    /// Only the declared values decode; otherwise an unknown one becomes `unknownCase`.
    public var isFrozen: Bool
    /// The case an unknown value decodes to: `unknown`, or `unrecognized` when a declared case
    /// is already named `unknown`.
    public var unknownCase: String {
        cases.contains { $0.swiftName == "unknown" } ? "unrecognized" : "unknown"
    }
}

public struct EnumCaseDescription: Sendable {
    public var swiftName: String
    /// The value on the wire: text, or an integer's digits.
    public var rawValue: String
}

public struct APIDescription: Sendable {
    public var manifestName: String
    /// Where the manifest declares it, for diagnostics about what it generates.
    public var declaredAt: SourceLocation
    /// `<prefix><Name>API`.
    public var className: String
    public var sourceFile: String
    /// The generated file it goes in, in its manifest's folder.
    public var generatedPath: String
    public var docLines: [String]
    /// What it is on the wire, with what only its kind has.
    public var shape: APIShape
    public var parameters: [ParameterDescription]
    public var response: ResponseDescription
    public var headers: [HeaderDescription]
    public var timeoutSeconds: Double?
    public var frequency: FrequencyPolicy?
    public var retry: RetryDescription?
    public var rateLimit: RateLimitDescription?
    /// nil when the manifest does not say: every header counts.
    public var significantHeaders: [String]?
    public var tags: [String]
    public var skippedInterceptors: [String]
    /// `authenticated:`; nil when the manifest does not say.
    public var authenticated: Bool? = nil
    public var sample: SampleDescription?
    /// Error bodies by status (`responses:`).
    public var errorResponses: [ErrorBodyDescription] = []
    /// Reply headers read as types (`responseHeaders:`); `wireName` is the header's name.
    public var responseHeaders: [ParameterDescription] = []
    /// Whether the RPC method has no side effects (`safe: true`, or its proto's `NO_SIDE_EFFECTS`).
    public var safe = false
    /// How the API's replies are cached (`cache:`).
    public var cache: CacheDescription?
    /// Tags whose cached replies a successful call removes (`invalidates:`).
    public var invalidates: [String] = []
    public var baseURL: String?

    /// The manifest's `kind:`.
    public var kind: APIKind { shape.kind }
}

/// What an API is on the wire, as the runtime's `Wire` says it: one case per kind, each with what
/// only that kind has, so that whatever reads a description handles every kind or says which it
/// leaves out.
public enum APIShape: Sendable {
    case rest(RESTDescription)
    case jsonRPC(RPCDescription)
    /// A team's own protocol, wrapped by the delegate `RPCDescription.delegateType` names.
    case customRPC(RPCDescription)
    case grpc(GRPCDescription)

    /// The manifest's `kind:`.
    public var kind: APIKind {
        switch self {
        case .rest: .rest
        case .jsonRPC: .jsonrpc
        case .customRPC: .rpc
        case .grpc: .grpc
        }
    }

    /// A REST API's method, path and body.
    public var rest: RESTDescription? {
        if case .rest(let rest) = self { rest } else { nil }
    }

    /// A JSON-RPC or custom RPC method: the two share a description, as they share a template.
    public var rpc: RPCDescription? {
        switch self {
        case .jsonRPC(let rpc), .customRPC(let rpc): rpc
        case .rest, .grpc: nil
        }
    }

    /// A gRPC method.
    public var grpc: GRPCDescription? {
        if case .grpc(let grpc) = self { grpc } else { nil }
    }
}

public struct GRPCDescription: Sendable {
    /// `package.Service/Method`.
    public var method: String
    /// The Swift names protoc-gen-swift gives the request and response messages.
    public var requestType: String
    public var responseType: String
    /// The request and response messages' full proto names (`routeguide.Point`), in the
    /// workspace's `protoShapes`.
    public var requestMessage: String = ""
    public var responseMessage: String = ""
    public var clientStreams: Bool
    public var serverStreams: Bool
    public var isIdempotent: Bool
    /// The proto's `idempotency_level = NO_SIDE_EFFECTS`.
    public var hasNoSideEffects = false
    /// `example:`, the request message encoded from its proto JSON: what `apigen verify` sends.
    public var exampleRequest: [UInt8]? = nil

    /// unary, client-streaming, server-streaming or bidirectional-streaming.
    public var shape: String {
        switch (clientStreams, serverStreams) {
        case (false, false): "unary"
        case (true, false): "client-streaming"
        case (false, true): "server-streaming"
        case (true, true): "bidirectional-streaming"
        }
    }
}

public struct RPCDescription: Sendable {
    /// The endpoint's path, joined to the base URL (empty when `url:` was absolute).
    public var path: String
    public var method: String
    public var structure: ParameterStructure
    public var isNotification: Bool
    public var envelope: [EnvelopeField]
    /// `JSONRPC` for JSON-RPC 2.0, or the app's own delegate type.
    public var delegateType: String
}

public struct EnvelopeField: Sendable, Equatable {
    public var name: String
    /// The value as JSON text.
    public var json: String
}

public struct RESTDescription: Sendable {
    public var method: HTTPMethodName
    public var path: String
    public var body: BodyShape
}

/// How a REST API's body is made.
public enum BodyShape: Sendable, Equatable {
    /// One JSON key, form field or multipart part per `in: body` parameter.
    case fields(BodyEncoding)
    /// The one body parameter is the whole body, in JSON.
    case value
    /// The one body parameter (an `HTTPBody`) is the whole body, of this content type.
    case bytes(contentType: String)
}

public struct ParameterDescription: Sendable {
    public var swiftName: String
    public var wireName: String
    public var type: SwiftType
    public var location: ParameterLocation
    public var docLines: [String]
    /// A multipart part sent as JSON (a model, a dictionary or a JSON value) rather than as text,
    /// bytes or a file.
    public var isJSONPart = false
    /// The file a download is written to: an argument of the initializer, not sent.
    public var isDownloadDestination = false
    /// The initializer argument's default value, as a Swift expression.
    public var defaultLiteral: String? = nil
    public var dateFormat: DateFormat = .iso8601
    /// `example:`, as JSON text: what `apigen verify` sends.
    public var exampleJSON: String? = nil
    /// `default:`, as JSON text: what `apigen verify` sends without an example, as the generated
    /// initializer does.
    public var defaultJSON: String? = nil

    static let lastEventID = ParameterDescription(
        swiftName: "lastEventID", wireName: "Last-Event-ID", type: SwiftType(spelling: "String?", isOptional: true, needsFoundation: false),
        location: .header, docLines: ["The `id` of the last event received, to resume the stream after it."]
    )

    static let downloadDestination = ParameterDescription(
        swiftName: "destination", wireName: "", type: SwiftType(spelling: "URL", isOptional: false, needsFoundation: true),
        location: .query, docLines: ["The file the body is written to, replacing any file there."], isDownloadDestination: true
    )
}

public struct ResponseDescription: Sendable {
    public enum Decoding: String, Sendable {
        case json, text, noContent
        /// The body's bytes as they are (`response: bytes`).
        case bytes
        /// The body written to a file as it arrives (`response: file`).
        case download = "download(to: destination)"
        /// Server-Sent Events with JSON data, or text data, and JSON Lines (`APIEventStreams`).
        case events = "events()"
        case textEvents
        case jsonLines = "jsonLines()"

        /// Whether the response type comes from the `APIEventStreams` module.
        public var isEventStream: Bool { self == .events || self == .textEvents || self == .jsonLines }
        /// One protobuf message (unary and client-streaming gRPC).
        case protobuf
        /// A stream of protobuf messages (server- and bidirectional-streaming gRPC).
        case grpcStream = "grpcStream()"
    }

    /// The Swift type of the response: a model, a list, a scalar, or `NoContent`.
    public var type: SwiftType
    public var decoding: Decoding

    /// `response: bytes` and `response: file`: bodies that are not decoded.
    static let bodyKeywords: [TypeExpression: ResponseDescription] = [
        .named("bytes"): ResponseDescription(type: SwiftType(spelling: "Data", isOptional: false, needsFoundation: true), decoding: .bytes),
        .named("file"): ResponseDescription(type: SwiftType(spelling: "URL", isOptional: false, needsFoundation: true), decoding: .download),
    ]
}
