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
    public static let definition = APIDefinition(
        name: {{{nameLiteral}}},
        method: .post,
        path: {{{pathLiteral}}},
{{> settings}}
        rpc: RPCMethod(name: {{{rpcMethodLiteral}}}{{#clientStreams}}, clientStreams: true{{/clientStreams}}{{#serverStreams}}, serverStreams: true{{/serverStreams}}{{#isIdempotent}}, isIdempotent: true{{/isIdempotent}}),
        inheritsDefaultHeaders: false,
        defaults: .workspace
    )

    public override var rpcDelegate: (any RPCDelegate)? { GRPCProtocol() }
{{^clientStreams}}

    /// Calls the method with `request`.
    public convenience init(_ request: {{{requestType}}} = {{{requestType}}}()) {
        self.init(definition: Self.definition, response: .{{decoding}}) { $0.message(request) }
    }

    /// Calls the method with the request `configure` fills in: `{{className}} { $0.field = value }`.
    public convenience init(_ configure: (inout {{{requestType}}}) -> Void) {
        var request = {{{requestType}}}()
        configure(&request)
        self.init(request)
    }
{{/clientStreams}}
{{#clientStreams}}

    /// Calls the method with the request messages `requests` writes as the call goes.
    public convenience init(_ requests: {{{parametersType}}}) {
        self.init(definition: Self.definition, response: .{{decoding}}) { $0.messages(requests) }
    }

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
{{^hasParameters}}
        self.init(definition: Self.definition, response: .{{decoding}})
{{/hasParameters}}
{{#hasParameters}}
        self.init(definition: Self.definition, response: .{{decoding}}) {
{{#parameters}}
            $0.{{builderMethod}}({{#wireNameLiteral}}{{{.}}}, {{/wireNameLiteral}}{{swiftName}})
{{/parameters}}
        }
{{/hasParameters}}
    }

"""#,
        "model": #"""
{{#docLines}}
/// {{{.}}}
{{/docLines}}
public struct {{swiftName}}: Codable, Sendable, Equatable {
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
{{#fields}}
{{#first()}}
        let fields = try FieldReader(decoder)
{{/first()}}
        self.{{swiftName}} = try fields.decode{{#isOptional}}IfPresent{{/isOptional}}({{{decodedType}}}.self, forKey: {{{keyLiteral}}})
{{/fields}}
{{^fields}}
        _ = try FieldReader(decoder)
{{/fields}}
    }

    public func encode(to encoder: any Encoder) throws {
{{#fields}}
{{#first()}}
        var fields = FieldWriter(encoder)
{{/first()}}
        try fields.encode{{#isOptional}}IfPresent{{/isOptional}}(self.{{swiftName}}, forKey: {{{keyLiteral}}})
{{/fields}}
{{^fields}}
        _ = FieldWriter(encoder)
{{/fields}}
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

    public static let definition = APIDefinition(
        name: {{{nameLiteral}}},
        method: .{{methodCase}},
        path: {{{pathLiteral}}},
{{> settings}}
        defaults: .workspace
    )

{{> initializer}}
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

    public static let definition = APIDefinition(
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
    )

    public override var rpcDelegate: (any RPCDelegate)? { {{delegateType}}() }

{{> initializer}}
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
    )
}

"""#,
    ]
}
