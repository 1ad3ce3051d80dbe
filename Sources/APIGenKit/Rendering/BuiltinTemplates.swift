// Generated from templates/*.mustache by `make builtin-templates`. Do not edit.

/// The templates apigen falls back to when a workspace does not override them.
enum BuiltinTemplates {
    static let all: [String: String] = [
        "enum": #"""
{{#docLines}}
/// {{{.}}}
{{/docLines}}
public enum {{swiftName}}: String, Codable, Sendable, CaseIterable, ParameterValue {
{{#cases}}
    case {{swiftName}}{{#customRawValueLiteral}} = {{{.}}}{{/customRawValueLiteral}}
{{/cases}}
}

"""#,
        "grpc": #"""
{{% CONTENT_TYPE: TEXT }}
import APIGRPC
import APIRuntime
import SwiftProtobuf

{{#docLines}}
/// {{{.}}}
{{/docLines}}
{{#hasDocLines}}
///
{{/hasDocLines}}
/// gRPC {{shape}} method `{{{rpcMethod}}}`
public final class {{className}}: BaseAPI<{{{responseType}}}>, @unchecked Sendable {
    // @unchecked as in BaseAPI: no stored state here; BaseAPI's `state` lock guards what it inherits.

    public override var rpcDelegate: (any RPCDelegate)? { GRPCProtocol() }

{{^clientStreams}}
    /// Calls the method with `request`.
    public convenience init(_ request: {{{requestType}}} = {{{requestType}}}()) {
{{/clientStreams}}
{{#clientStreams}}
    /// Calls the method with the request messages `requests` writes as the call goes.
    public convenience init(_ requests: {{{parametersType}}}) {
{{/clientStreams}}
        self.init(
            definedOnce: APIDefinition(
                name: {{{nameLiteral}}},
                grpc: RPCMethod(service: {{{serviceLiteral}}}, name: {{{methodNameLiteral}}}{{#clientStreams}}, clientStreams: true{{/clientStreams}}{{#serverStreams}}, serverStreams: true{{/serverStreams}}{{#isIdempotent}}, isIdempotent: true{{/isIdempotent}}),
{{> settings}}
                defaults: .workspace
            ),
            response: .{{decoding}},
            request: RequestBuilder().{{#clientStreams}}messages(requests){{/clientStreams}}{{^clientStreams}}message(request){{/clientStreams}}
        )
    }
{{^clientStreams}}

    /// Calls the method with the request `configure` fills in: `{{className}} { $0.field = value }`.
    public convenience init(_ configure: (inout {{{requestType}}}) -> Void) {
        var request = {{{requestType}}}()
        configure(&request)
        self.init(request)
    }
{{/clientStreams}}
{{#clientStreams}}

    /// Calls the method with `messages`, in order.
    public convenience init(_ messages: [{{{requestType}}}]) {
        self.init({{{parametersType}}}(messages))
    }

    /// Calls the method with the messages `produce` writes: `{{className}} { try await $0.write(message) }`.
    public convenience init(producing produce: @escaping @Sendable (GRPCRequestWriter<{{{requestType}}}>) async throws -> Void) {
        self.init({{{parametersType}}}(produce))
    }
{{/clientStreams}}
}

"""#,
        "initializer": #"""
{{#parameterDocLines}}
    /// {{{.}}}
{{/parameterDocLines}}
{{#inlineArguments}}
    public convenience init({{#parameters}}{{swiftName}}: {{{type}}}{{#isOptional}} = nil{{/isOptional}}{{^last()}}, {{/last()}}{{/parameters}}) {
{{/inlineArguments}}
{{^inlineArguments}}
    public convenience init(
{{#parameters}}
        {{swiftName}}: {{{type}}}{{#isOptional}} = nil{{/isOptional}}{{^last()}},{{/last()}}
{{/parameters}}
    ) {
{{/inlineArguments}}

"""#,
        "model": #"""
{{#docLines}}
/// {{{.}}}
{{/docLines}}
public struct {{swiftName}}: Codable, Sendable, FieldwiseEquatable{{#isErrorBody}}, Error{{/isErrorBody}} {
{{#fields}}
{{#docLines}}
    /// {{{.}}}
{{/docLines}}
    public {{binding}} {{swiftName}}: {{{type}}}
{{/fields}}

{{#inlineArguments}}
    public init({{#fields}}{{swiftName}}: {{{type}}}{{#isOptional}} = nil{{/isOptional}}{{^last()}}, {{/last()}}{{/fields}}) {
{{/inlineArguments}}
{{^inlineArguments}}
    public init(
{{#fields}}
        {{swiftName}}: {{{type}}}{{#isOptional}} = nil{{/isOptional}}{{^last()}},{{/last()}}
{{/fields}}
    ) {
{{/inlineArguments}}
{{#fields}}
        self.{{swiftName}} = {{swiftName}}
{{/fields}}
    }

    public init(from decoder: any Decoder) throws {
{{#hasFields}}
        let fields = try FieldReader(decoder)
{{#inlineArguments}}
        try self.init({{#fields}}{{argumentLabel}}: fields.{{fieldMethod}}({{#valueType}}{{{.}}}.self, {{/valueType}}{{{keyLiteral}}}){{^last()}}, {{/last()}}{{/fields}})
{{/inlineArguments}}
{{^inlineArguments}}
        try self.init(
{{#fields}}
            {{argumentLabel}}: fields.{{fieldMethod}}({{#valueType}}{{{.}}}.self, {{/valueType}}{{{keyLiteral}}}){{^last()}},{{/last()}}
{{/fields}}
        )
{{/inlineArguments}}
{{/hasFields}}
{{^hasFields}}
        _ = try FieldReader(decoder)
{{/hasFields}}
    }

    public func encode(to encoder: any Encoder) throws {
{{#fields}}
{{#first()}}
        var fields = FieldWriter(encoder)
{{/first()}}
        try fields.{{fieldMethod}}(self.{{swiftName}}, {{{keyLiteral}}})
{{/fields}}
{{^fields}}
        _ = FieldWriter(encoder)
{{/fields}}
    }

    public static func fieldsEqual(_ lhs: {{swiftName}}, _ rhs: {{swiftName}}) -> Bool {
{{#hasFields}}
        guard
{{#fields}}
            FieldComparison.{{comparisonMethod}}(lhs.{{swiftName}}, rhs.{{swiftName}}){{^last()}},{{/last()}}
{{/fields}}
        else { return false }
{{/hasFields}}
        return true
    }
}

"""#,
        "models": #"""
{{% CONTENT_TYPE: TEXT }}
{{#imports}}
import {{.}}
{{/imports}}
{{#models}}
{{#hasImports}}

{{/hasImports}}
{{^hasImports}}
{{^first()}}

{{/first()}}
{{/hasImports}}
{{#isEnum}}
{{> enum}}
{{/isEnum}}
{{^isEnum}}
{{> model}}
{{/isEnum}}
{{/models}}

"""#,
        "request": #"""
{{#hasParameters}}
            request: RequestBuilder()
{{#parameters}}
{{#builderMethod}}
                .{{builderMethod}}({{#wireNameLiteral}}{{{.}}}, {{/wireNameLiteral}}{{swiftName}})
{{/builderMethod}}
{{/parameters}}
{{/hasParameters}}

"""#,
        "rest": #"""
{{% CONTENT_TYPE: TEXT }}
{{#imports}}
import {{.}}
{{/imports}}

{{#docLines}}
/// {{{.}}}
{{/docLines}}
{{#hasDocLines}}
///
{{/hasDocLines}}
/// `{{method}} {{{path}}}`
public final class {{className}}: BaseAPI<{{{responseType}}}>, @unchecked Sendable {
    // @unchecked as in BaseAPI: no stored state here; BaseAPI's `state` lock guards what it inherits.

{{> initializer}}
        self.init(
            definedOnce: APIDefinition(
                name: {{{nameLiteral}}},
                method: .{{methodCase}},
                path: {{{pathLiteral}}},
{{> settings}}
                defaults: .workspace
            ),
            response: .{{decoding}}{{#hasParameters}},{{/hasParameters}}
{{> request}}
        )
    }
{{#hasResponseHeaders}}

    /// The reply's headers this API declares; nil when absent or not of the declared type.
    public struct ResponseHeaders: Sendable, Hashable {
{{#responseHeaders}}
{{#docLines}}
        /// {{{.}}}
{{/docLines}}
        public let {{swiftName}}: {{{type}}}?
{{/responseHeaders}}

        public init(_ headers: HeaderReader) {
{{#responseHeaders}}
            {{swiftName}} = headers.value({{{wireNameLiteral}}})
{{/responseHeaders}}
        }
    }

    /// `start()`, with the reply's declared headers.
    public func startWithHeaders() async throws(APIError) -> (value: {{{responseType}}}, headers: ResponseHeaders) {
        let reply = try await startWithMetadata()
        return (reply.value, ResponseHeaders(reply.headers))
    }
{{/hasResponseHeaders}}
}

"""#,
        "rpc": #"""
{{% CONTENT_TYPE: TEXT }}
{{#imports}}
import {{.}}
{{/imports}}

{{#docLines}}
/// {{{.}}}
{{/docLines}}
{{#hasDocLines}}
///
{{/hasDocLines}}
/// {{protocolName}} {{#isNotification}}notification{{/isNotification}}{{^isNotification}}method{{/isNotification}} `{{{rpcMethod}}}`{{#path}} at `{{{.}}}`{{/path}}
public final class {{className}}: BaseAPI<{{{responseType}}}>, @unchecked Sendable {
    // @unchecked as in BaseAPI: no stored state here; BaseAPI's `state` lock guards what it inherits.

    public override var rpcDelegate: (any RPCDelegate)? { {{delegateType}}() }

{{> initializer}}
        self.init(
            definedOnce: APIDefinition(
                name: {{{nameLiteral}}},
                method: .post,
                path: {{{pathLiteral}}},
{{> settings}}
{{#hasEnvelope}}
                rpc: RPCMethod(
                    name: {{{rpcMethodLiteral}}},
{{#isNotification}}
                    isNotification: true,
{{/isNotification}}
                    envelopeFields: [
{{#envelope}}
                        (name: {{{nameLiteral}}}, json: {{{jsonLiteral}}}),
{{/envelope}}
                    ]
                ),
{{/hasEnvelope}}
{{^hasEnvelope}}
                rpc: RPCMethod(name: {{{rpcMethodLiteral}}}{{#isNotification}}, isNotification: true{{/isNotification}}),
{{/hasEnvelope}}
                defaults: .workspace
            ),
            response: .{{decoding}}{{#hasParameters}},{{/hasParameters}}
{{> request}}
        )
    }
}

"""#,
        "settings": #"""
{{#baseURLLiteral}}
                baseURL: {{{.}}},
{{/baseURLLiteral}}
{{#hasHeaders}}
                headers: [
{{#headers}}
                    (name: {{{nameLiteral}}}, value: {{{valueLiteral}}}),
{{/headers}}
                ],
{{/hasHeaders}}
{{#timeout}}
                timeout: {{{.}}},
{{/timeout}}
{{#frequency}}
                frequency: .{{.}},
{{/frequency}}
{{#retry}}
                retry: {{{.}}},
{{/retry}}
{{#rateLimit}}
                rateLimit: {{{.}}},
{{/rateLimit}}
{{#significantHeaders}}
                significantHeaders: {{{.}}},
{{/significantHeaders}}
{{#tags}}
                tags: {{{.}}},
{{/tags}}
{{#skippedInterceptors}}
                skippedInterceptors: {{{.}}},
{{/skippedInterceptors}}
{{#sample}}
                sample: {{{.}}},
{{/sample}}
{{#errorResponses}}
                errorResponses: {{{.}}},
{{/errorResponses}}

"""#,
        "workspace": #"""
{{% CONTENT_TYPE: TEXT }}
import APIRuntime

extension APIDefaults {
    /// The `defaults:` of {{{workspaceFile}}}, inherited by every API of {{module}}.
    static let workspace = APIDefaults(
{{#baseURLLiteral}}
        baseURL: {{{.}}},
{{/baseURLLiteral}}
{{#timeout}}
        timeout: {{{.}}},
{{/timeout}}
{{#hasHeaders}}
        headers: [
{{#headers}}
            (name: {{{nameLiteral}}}, value: {{{valueLiteral}}}),
{{/headers}}
        ],
{{/hasHeaders}}
{{#maxConnectionsPerHost}}
        maxConnectionsPerHost: {{.}},
{{/maxConnectionsPerHost}}
{{#frequency}}
        frequency: .{{.}},
{{/frequency}}
{{#retry}}
        retry: {{{.}}},
{{/retry}}
{{#rateLimit}}
        rateLimit: {{{.}}},
{{/rateLimit}}
{{#errorResponses}}
        errorResponses: {{{.}}},
{{/errorResponses}}
    )
}

"""#,
    ]
}
