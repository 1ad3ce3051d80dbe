// Generated from templates/*.mustache by `make builtin-templates`. Do not edit.

/// The templates apigen falls back to when a workspace does not override them.
enum BuiltinTemplates {
    static let all: [String: String] = [
        "assignments": #"""
{{#parameters}}
        self.{{property}} = {{argument}}
{{/parameters}}

"""#,
        "enum": #"""
// Declared in {{{manifest}}} as {{{declaredName}}}.
{{#docLines}}
/// {{{.}}}
{{/docLines}}
{{#isFrozen}}
{{access}}nonisolated enum {{swiftName}}: {{rawType}}, Codable, Hashable, Sendable, CaseIterable, APIRuntime.ParameterValue, APIRuntime.HeaderValue {
{{#cases}}
    case {{swiftName}}{{#customRawValueLiteral}} = {{{.}}}{{/customRawValueLiteral}}
{{/cases}}
}
{{/isFrozen}}
{{^isFrozen}}
{{access}}nonisolated enum {{swiftName}}: RawRepresentable, Codable, Hashable, Sendable, CaseIterable, APIRuntime.ParameterValue, APIRuntime.HeaderValue {
{{#cases}}
    case {{swiftName}}
{{/cases}}
    /// A value this version of the client does not know, kept as the server sent it.
    case {{unknownCase}}({{rawType}})

    {{access}}init(rawValue: {{rawType}}) {
        switch rawValue {
{{#cases}}
        case {{{rawValueLiteral}}}: self = .{{swiftName}}
{{/cases}}
        default: self = .{{unknownCase}}(rawValue)
        }
    }

    {{access}}var rawValue: {{rawType}} {
        switch self {
{{#cases}}
        case .{{swiftName}}: {{{rawValueLiteral}}}
{{/cases}}
        case .{{unknownCase}}(let value): value
        }
    }

    /// The values this version of the client knows.
    {{access}}static let allCases: [{{swiftName}}] = [{{#cases}}.{{swiftName}}{{^last()}}, {{/last()}}{{/cases}}]
}
{{/isFrozen}}

"""#,
        "grpc": #"""
{{% CONTENT_TYPE: TEXT }}
{{> header}}
    {{access}}static let definition = APIRuntime.APIDefinition(
        name: {{{nameLiteral}}},
        wire: .grpc(APIRuntime.GRPCMethod(service: {{{serviceLiteral}}}, method: {{{methodNameLiteral}}}, shape: .{{shapeCase}}{{#isIdempotent}}, isIdempotent: true{{/isIdempotent}})),
{{> settings}}
        defaults: .workspace
    )
{{> sample}}

{{^clientStreams}}
    /// The request message.
    {{access}}let request: {{{requestType}}}

    /// Calls the method with `request`.
    {{access}}init(_ request: {{{requestType}}} = {{{requestType}}}()) {
        self.request = request
{{/clientStreams}}
{{#clientStreams}}
    /// The request messages, written as the call goes.
    {{access}}let requests: {{{parametersType}}}

    /// Calls the method with the request messages `requests` writes as the call goes.
    {{access}}init(_ requests: {{{parametersType}}}) {
        self.requests = requests
{{/clientStreams}}
        super.init(
            definition: Self.definition,
            response: .{{decoding}},
            request: APIRuntime.RequestBuilder().{{#clientStreams}}messages(requests){{/clientStreams}}{{^clientStreams}}message(request){{/clientStreams}}
        )
    }
{{^clientStreams}}

    /// Calls the method with the request `configure` fills in: `{{className}} { $0.field = value }`.
    {{access}}convenience init(_ configure: (inout {{{requestType}}}) -> Void) {
        var request = {{{requestType}}}()
        configure(&request)
        self.init(request)
    }
{{/clientStreams}}
{{#clientStreams}}

    /// Calls the method with `messages`, in order.
    {{access}}convenience init(_ messages: [{{{requestType}}}]) {
        self.init({{{parametersType}}}(messages))
    }

    /// Calls the method with the messages `produce` writes: `{{className}} { try await $0.write(message) }`.
    {{access}}convenience init(producing produce: @escaping @Sendable (APIGRPC.GRPCRequestWriter<{{{requestType}}}>) async throws -> Void) {
        self.init({{{parametersType}}}(produce))
    }
{{/clientStreams}}
}

"""#,
        "header": #"""
{{#imports}}
import {{.}}
{{/imports}}

// Declared in {{{manifest}}} as {{{declaredName}}}.
{{#docLines}}
/// {{{.}}}
{{/docLines}}
{{#hasDocLines}}
///
{{/hasDocLines}}
/// {{{summary}}}
{{access}}nonisolated final class {{className}}: APIRuntime.BaseAPI<{{{responseType}}}>, @unchecked Sendable {

"""#,
        "initializer": #"""
{{#parameterDocLines}}
    /// {{{.}}}
{{/parameterDocLines}}
{{#inlineArguments}}
    {{access}}init({{#parameters}}{{parameter}}: {{{type}}}{{#defaultArgument}} = {{{.}}}{{/defaultArgument}}{{^last()}}, {{/last()}}{{/parameters}}) {
{{/inlineArguments}}
{{^inlineArguments}}
    {{access}}init(
{{#parameters}}
        {{parameter}}: {{{type}}}{{#defaultArgument}} = {{{.}}}{{/defaultArgument}}{{^last()}},{{/last()}}
{{/parameters}}
    ) {
{{/inlineArguments}}

"""#,
        "model": #"""
// Declared in {{{manifest}}} as {{{declaredName}}}.
{{#docLines}}
/// {{{.}}}
{{/docLines}}
{{access}}nonisolated struct {{swiftName}}: Codable, Hashable, Sendable{{#isErrorBody}}, Error{{/isErrorBody}} {
{{#fields}}
{{#docLines}}
    /// {{{.}}}
{{/docLines}}
    {{access}}{{binding}} {{swiftName}}: {{{type}}}
{{/fields}}
{{#hasFields}}

{{#inlineArguments}}
    {{access}}init({{#fields}}{{parameter}}: {{{type}}}{{#defaultArgument}} = {{{.}}}{{/defaultArgument}}{{^last()}}, {{/last()}}{{/fields}}) {
{{/inlineArguments}}
{{^inlineArguments}}
    {{access}}init(
{{#fields}}
        {{parameter}}: {{{type}}}{{#defaultArgument}} = {{{.}}}{{/defaultArgument}}{{^last()}},{{/last()}}
{{/fields}}
    ) {
{{/inlineArguments}}
{{#fields}}
        self.{{swiftName}} = {{argument}}
{{/fields}}
    }
{{/hasFields}}
{{^hasFields}}

    {{access}}init() {}
{{/hasFields}}
{{#hasCodingKeys}}

    enum CodingKeys: String, CodingKey{{#keepsAdditionalProperties}}, CaseIterable{{/keepsAdditionalProperties}} {
{{#codedFields}}
        case {{swiftName}}{{#customKeyLiteral}} = {{{.}}}{{/customKeyLiteral}}
{{/codedFields}}
    }
{{/hasCodingKeys}}
{{#writesDecoding}}

    {{access}}init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
{{#codedFields}}
        self.{{swiftName}} = {{{decodeExpression}}}
{{/codedFields}}
{{#keepsAdditionalProperties}}
        self.additionalProperties = try APIRuntime.AdditionalProperties.decode(from: decoder, excluding: CodingKeys.self)
{{/keepsAdditionalProperties}}
    }
{{/writesDecoding}}
{{#writesEncoding}}

    {{access}}func encode(to encoder: any Encoder) throws {
{{#keepsAdditionalProperties}}
        try APIRuntime.AdditionalProperties.encode(self.additionalProperties, to: encoder)
{{/keepsAdditionalProperties}}
        var container = encoder.container(keyedBy: CodingKeys.self)
{{#codedFields}}
        {{{encodeStatement}}}
{{/codedFields}}
    }
{{/writesEncoding}}
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
{{#isUnion}}
{{> union}}
{{/isUnion}}
{{#isStruct}}
{{> model}}
{{/isStruct}}
{{/models}}

"""#,
        "properties": #"""
{{#parameters}}
{{#first()}}

{{/first()}}
{{#docLines}}
    /// {{{.}}}
{{/docLines}}
    {{access}}let {{property}}: {{{type}}}
{{/parameters}}

"""#,
        "request": #"""
{{#hasParameters}}
            request: APIRuntime.RequestBuilder()
{{#parameters}}
{{#builderMethod}}
                .{{builderMethod}}({{#wireNameLiteral}}{{{.}}}, {{/wireNameLiteral}}{{{valueExpression}}})
{{/builderMethod}}
{{/parameters}}
{{/hasParameters}}

"""#,
        "rest": #"""
{{% CONTENT_TYPE: TEXT }}
{{> header}}
    {{access}}static let definition = APIRuntime.APIDefinition(
        name: {{{nameLiteral}}},
        wire: .http(.{{methodCase}}, path: {{{pathLiteral}}}),
{{> settings}}
        defaults: .workspace
    )
{{> sample}}
{{> properties}}

{{> initializer}}
{{> assignments}}
        super.init(
            definition: Self.definition,
            response: .{{decoding}}{{#hasParameters}},{{/hasParameters}}
{{> request}}
        )
    }
{{#hasResponseHeaders}}

    /// The reply's headers this API declares; nil when absent or not of the declared type.
    {{access}}struct ResponseHeaders: Hashable, Sendable {
{{#responseHeaders}}
{{#docLines}}
        /// {{{.}}}
{{/docLines}}
        {{access}}let {{swiftName}}: {{{type}}}?
{{/responseHeaders}}

        {{access}}init(_ headers: APIRuntime.HeaderReader) {
{{#responseHeaders}}
            self.{{swiftName}} = headers.value({{{wireNameLiteral}}})
{{/responseHeaders}}
        }
    }

    /// `start(options:)`, with the reply's declared headers.
    {{access}}func startWithHeaders(
        options: APIRuntime.APICallOptions = APIRuntime.APICallOptions()
    ) async throws(APIRuntime.APIError) -> (value: {{{responseType}}}, headers: ResponseHeaders) {
        let reply = try await startWithMetadata(options: options)
        return (reply.value, ResponseHeaders(reply.headers))
    }
{{/hasResponseHeaders}}
}

"""#,
        "rpc": #"""
{{% CONTENT_TYPE: TEXT }}
{{> header}}
    {{access}}static let definition = APIRuntime.APIDefinition(
        name: {{{nameLiteral}}},
{{#hasEnvelope}}
        wire: .{{wireCase}}({{{methodType}}}(
            {{{rpcMethodLiteral}}},
{{#pathLiteral}}
            path: {{{.}}},
{{/pathLiteral}}
{{#isNotification}}
            isNotification: true,
{{/isNotification}}
            envelope: [
{{#envelope}}
                (name: {{{nameLiteral}}}, value: {{{valueLiteral}}}),
{{/envelope}}
            ]{{#delegateExpression}},
            delegate: {{{.}}}{{/delegateExpression}}
        )),
{{/hasEnvelope}}
{{^hasEnvelope}}
        wire: .{{wireCase}}({{{methodType}}}({{{rpcMethodLiteral}}}{{#pathLiteral}}, path: {{{.}}}{{/pathLiteral}}{{#isNotification}}, isNotification: true{{/isNotification}}{{#delegateExpression}}, delegate: {{{.}}}{{/delegateExpression}})),
{{/hasEnvelope}}
{{> settings}}
        defaults: .workspace
    )
{{> sample}}
{{> properties}}

{{> initializer}}
{{> assignments}}
        super.init(
            definition: Self.definition,
            response: .{{decoding}}{{#hasParameters}},{{/hasParameters}}
{{> request}}
        )
    }
}

"""#,
        "sample": #"""
{{#sample}}

    #if DEBUG
    /// The manifest's `sample:`, the answer when `StubSet(usesManifestSamples: true)`.
    private static let sample: APIRuntime.StubResponse? = {{{.}}}
    #else
    // Samples stay out of release builds.
    private static let sample: APIRuntime.StubResponse? = nil
    #endif
{{/sample}}

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
{{#authenticated}}
        authenticated: {{{.}}},
{{/authenticated}}
{{#sample}}
        sample: {{className}}.sample,
{{/sample}}
{{#errorResponses}}
        errorResponses: {{{.}}},
{{/errorResponses}}
{{#safe}}
        safe: {{{.}}},
{{/safe}}
{{#cache}}
        cache: {{{.}}},
{{/cache}}
{{#invalidates}}
        invalidates: {{{.}}},
{{/invalidates}}

"""#,
        "union": #"""
// Declared in {{{manifest}}} as {{{declaredName}}}.
{{#docLines}}
/// {{{.}}}
{{/docLines}}
{{access}}nonisolated enum {{swiftName}}: Codable, Hashable, Sendable {
{{#alternatives}}
    case {{caseName}}({{{type}}})
{{/alternatives}}
{{#discriminatorCase}}

    enum CodingKeys: String, CodingKey {
        case {{discriminatorCase}}{{#discriminatorKeyLiteral}} = {{{.}}}{{/discriminatorKeyLiteral}}
    }

    /// Reads `{{{discriminatorText}}}` and decodes the alternative it names.
    {{access}}init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let value = try decoder.singleValueContainer()
        switch try container.decode(String.self, forKey: .{{discriminatorCase}}) {
{{#alternatives}}
        case {{{valueLiteral}}}: self = .{{caseName}}(try value.decode({{{type}}}.self))
{{/alternatives}}
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .{{discriminatorCase}}, in: container, debugDescription: "'\(other)' names none of {{alternativeNames}}")
        }
    }
{{/discriminatorCase}}
{{^discriminatorCase}}

    /// Decodes the first alternative the value is, in the order declared.
    {{access}}init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
{{#alternatives}}
{{#first()}}
        if let value = try? container.decode({{{type}}}.self) {
{{/first()}}
{{^first()}}
        } else if let value = try? container.decode({{{type}}}.self) {
{{/first()}}
            self = .{{caseName}}(value)
{{/alternatives}}
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "the value is none of {{alternativeNames}}")
        }
    }
{{/discriminatorCase}}

    {{access}}func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
{{#alternatives}}
        case .{{caseName}}(let value): try container.encode(value)
{{/alternatives}}
        }
    }
}

"""#,
        "workspace": #"""
{{% CONTENT_TYPE: TEXT }}
import APIRuntime

nonisolated extension APIRuntime.APIDefaults {
    /// The `defaults:` of {{{workspaceFile}}}, inherited by every API of {{module}}.
    static let workspace = APIRuntime.APIDefaults(
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
{{#cache}}
        cache: {{{.}}},
{{/cache}}
    )
}

"""#,
    ]
}
