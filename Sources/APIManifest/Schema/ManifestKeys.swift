/// Where in a manifest a key may appear.
public enum KeyPlace: String, CaseIterable, Sendable {
    case workspace, defaults, apiFile, grpcSettings, type, field, parameter, responseHeader, wholeBody
    case restAPI, jsonrpcAPI, rpcAPI, grpcAPI
    case retry, rateLimit, sample, cache

    /// The place of an API of `kind`.
    public static func api(_ kind: APIKind) -> KeyPlace {
        switch kind {
        case .rest: .restAPI
        case .jsonrpc: .jsonrpcAPI
        case .rpc: .rpcAPI
        case .grpc: .grpcAPI
        }
    }

    /// How the docs' key tables name the place.
    var title: String {
        switch self {
        case .workspace: "The workspace file"
        case .defaults: "`defaults:` of the workspace file"
        case .apiFile: "An API file"
        case .grpcSettings: "`grpc:` of an API file"
        case .type: "A type under `types:`"
        case .field: "A field, in its long form"
        case .parameter: "A parameter, in its long form"
        case .responseHeader: "A reply header under `responseHeaders:`, in its long form"
        case .wholeBody: "`body:` of a REST API, in its long form"
        case .restAPI: "A REST API"
        case .jsonrpcAPI: "A JSON-RPC API (`kind: jsonrpc`)"
        case .rpcAPI: "An API of a team's own RPC protocol (`kind: rpc`)"
        case .grpcAPI: "A gRPC API (`kind: grpc`)"
        case .retry: "`retry:`"
        case .rateLimit: "`rateLimit:`"
        case .sample: "`sample:`"
        case .cache: "`cache:`"
        }
    }
}

/// One key of the manifest format, declared once: where it may appear, its JSON Schema and its
/// one-line doc. The readers' lists of allowed keys, `apigen schema` and the key tables at the end
/// of docs/manifest.md all come from `ManifestKeys.all`.
public struct ManifestKey {
    public let name: String
    public let places: [KeyPlace]
    public let doc: String
    /// The JSON Schema of its value, without the description (added from `doc`).
    let schema: [String: Any]
    /// The tools besides the generator that read or write it here; `[]` for none.
    public let uses: Set<KeyTool>
}

public enum ManifestKeys {
    /// Every key, in the order messages and the docs list them.
    static var all: [ManifestKey] {
        let apis: [KeyPlace] = [.restAPI, .jsonrpcAPI, .rpcAPI, .grpcAPI]
        let httpAPIs: [KeyPlace] = [.restAPI, .jsonrpcAPI, .rpcAPI]
        let rpcAPIs: [KeyPlace] = [.jsonrpcAPI, .rpcAPI]
        let typeExpression: [String: Any] = ["$ref": "#/definitions/typeExpression"]
        let string: [String: Any] = ["type": "string"]
        let boolean: [String: Any] = ["type": "boolean"]
        let seconds: [String: Any] = ["type": "number", "exclusiveMinimum": 0]
        let scalars: [String: Any] = ["type": "object", "additionalProperties": ["type": ["string", "number", "boolean"]]]
        let strings: [String: Any] = ["type": "array", "items": ["type": "string"]]
        func key(_ name: String, _ places: [KeyPlace], _ doc: String, _ schema: [String: Any] = string, uses: Set<KeyTool>) -> ManifestKey {
            ManifestKey(name: name, places: places, doc: doc, schema: schema, uses: uses)
        }
        return [
            // The workspace file.
            key("module", [.workspace], "The Swift module the code is generated into.", uses: [.importer, .exporter]),
            key("prefix", [.workspace], "Put in front of every generated type name.", ["type": ["string", "null"]], uses: []),
            key("output", [.workspace], "The generated folder, relative to this file. apigen owns it.", uses: [.importer]),
            key("templates", [.workspace], "A folder of Mustache templates overriding the built-in ones, file by file.", uses: []),
            key("sources", [.workspace], "The module's hand-written Swift, where custom RPC delegates are declared.", uses: []),
            key("access", [.workspace], "The access level of the generated code: public (default), package or internal.", keywords(AccessLevel.self), uses: []),
            key("mutableModels", [.workspace], "false: models' fields are let instead of var (the default), unless a model sets mutable.", boolean, uses: []),
            key("defaults", [.workspace], "Settings every API inherits.", ["$ref": "#/definitions/defaults"], uses: [.importer, .exporter, .contractCheck, .mockServer]),
            // An API file.
            key("types", [.apiFile], "Models (fields:), enums (enum:), unions (oneOf:) and the app's own types (swift:).",
                ["type": "object", "additionalProperties": ["$ref": "#/definitions/type"]], uses: [.importer, .exporter, .contractCheck]),
            key("apis", [.apiFile], "APIs by name; each becomes <prefix><Name>API.", ["type": "object", "additionalProperties": ["$ref": "#/definitions/api"]], uses: [.importer, .exporter, .contractCheck, .mockServer]),
            key("grpc", [.apiFile], "Where this file's gRPC APIs come from: { protos, importPaths, target, tls, deadline, metadata }.",
                ["$ref": "#/definitions/grpcSettings"], uses: [.contractCheck]),
            key("protos", [.grpcSettings], "The .proto files to compile, as found under importPaths.", ["type": "array", "items": ["type": "string", "minLength": 1]], uses: [.contractCheck]),
            key("importPaths", [.grpcSettings], "Folders protoc searches, relative to this file; default: this file's folder.",
                ["type": "array", "items": ["type": "string", "minLength": 1]], uses: [.contractCheck]),
            key("target", [.grpcSettings], "The gRPC server as host:port.", uses: [.contractCheck]),
            key("tls", [.grpcSettings], "TLS (default) or, with false, plaintext HTTP/2.", boolean, uses: [.contractCheck]),
            // Types.
            key("description", [.type], "Becomes the doc comment.", uses: [.importer, .exporter]),
            key("fields", [.type], "Fields by Swift name: a type, or { type, json, default, format, description }.",
                ["type": "object", "additionalProperties": ["$ref": "#/definitions/field"]], uses: [.importer, .exporter, .contractCheck]),
            key("mutable", [.type], "false: this model's fields are let instead of var; true: var. Default: the workspace's mutableModels (true).", boolean, uses: []),
            key("additionalProperties", [.type], "true: members of the JSON object the model does not declare are kept in additionalProperties.", boolean, uses: [.importer, .exporter, .contractCheck]),
            key("enum", [.type], "A list of raw values, or a mapping of case names to raw values.", ["oneOf": [
                ["type": "array", "minItems": 1, "items": ["type": ["string", "integer"]]],
                ["type": "object", "minProperties": 1, "additionalProperties": ["type": ["string", "integer"]]],
            ]], uses: [.importer, .exporter, .contractCheck]),
            key("type", [.type], "An enum's raw value type; default String.", ["type": "string", "enum": enumRawTypes], uses: [.importer, .exporter, .contractCheck]),
            key("frozen", [.type], "true: only the declared values decode. Otherwise a value the client does not know decodes to the enum's unknown case.", boolean, uses: [.contractCheck]),
            key("oneOf", [.type], "A union: the value is one of these types.", ["type": "array", "minItems": 2, "items": typeExpression], uses: [.importer, .exporter, .contractCheck]),
            key("discriminator", [.type], "The JSON member every alternative of a union has whose value names the alternative.", uses: [.importer, .exporter, .contractCheck]),
            key("mapping", [.type], "Discriminator values by type, when they are not the types' names: { card: Card }.",
                ["type": "object", "additionalProperties": ["type": "string"]], uses: [.importer, .exporter, .contractCheck]),
            key("swift", [.type], "A Swift type the app's hand-written sources declare, used instead of generating one.", uses: [.exporter, .contractCheck]),
            // Fields, parameters, reply headers and a whole body, in their long forms.
            // A key whose tools differ by place is declared once per set of places.
            key("type", [.field, .parameter], "A type in Swift's spelling (a whole body: also bytes).", typeExpression, uses: [.importer, .exporter, .contractCheck]),
            key("type", [.responseHeader, .wholeBody], "A type in Swift's spelling (a whole body: also bytes).", typeExpression, uses: [.importer, .exporter]),
            key("json", [.field], "The JSON key, when it differs from the Swift name.", uses: [.importer, .exporter, .contractCheck]),
            key("in", [.parameter], "Where a REST parameter travels: path, query, header or body.", keywords(ParameterLocation.self), uses: [.importer, .exporter, .contractCheck]),
            key("name", [.parameter], "The name on the wire, when it differs from the Swift name (a whole body: its argument's name).", uses: [.importer, .exporter, .contractCheck]),
            key("name", [.responseHeader], "The name on the wire, when it differs from the Swift name (a whole body: its argument's name).", uses: [.importer, .exporter]),
            key("name", [.wholeBody], "The name on the wire, when it differs from the Swift name (a whole body: its argument's name).", uses: [.importer]),
            key("contentType", [.wholeBody], "The body's content type, for bytes: image/png.", uses: [.importer, .exporter]),
            key("default", [.field], "The value when the JSON leaves the field out, or the initializer argument's default.",
                ["type": ["string", "number", "boolean"]], uses: [.importer, .exporter, .contractCheck]),
            key("default", [.parameter], "The value when the JSON leaves the field out, or the initializer argument's default.",
                ["type": ["string", "number", "boolean"]], uses: [.importer, .contractCheck]),
            key("example", [.parameter], "A value the parameter may take, sent by apigen verify: text, a number, a list or a mapping.", [:], uses: [.importer, .contractCheck]),
            key("format", [.field, .parameter], "How a Date is written: iso8601 (default), unixSeconds or unixMilliseconds.", keywords(DateFormat.self), uses: [.exporter, .contractCheck]),
            key("description", [.field, .parameter, .responseHeader], "Becomes the doc comment.", uses: [.importer, .exporter]),
            key("description", [.wholeBody], "Becomes the doc comment.", uses: [.importer]),
            // APIs.
            key("kind", apis, "rest (default), jsonrpc, rpc or grpc.", keywords(APIKind.self), uses: [.exporter, .contractCheck, .mockServer]),
            key("description", apis, "Becomes the doc comment.", uses: [.importer, .exporter]),
            key("method", [.restAPI, .jsonrpcAPI, .rpcAPI], "REST: the HTTP method. JSON-RPC and rpc: the remote method's name.", ["type": "string", "minLength": 1], uses: [.importer, .exporter, .contractCheck, .mockServer]),
            key("path", [.restAPI], "The path, with {name} placeholders for path parameters.", uses: [.importer, .exporter, .contractCheck, .mockServer]),
            key("url", rpcAPIs, "The RPC endpoint: an absolute URL, or a path joined to the base URL.", uses: [.exporter, .contractCheck, .mockServer]),
            key("rpc", [.grpcAPI], "The gRPC method: package.Service/Method.", uses: [.contractCheck]),
            key("service", [.grpcAPI], "A gRPC service, package.Service: one API per method, each named after it.", uses: [.contractCheck]),
            key("example", [.grpcAPI], "The request message in proto's JSON, sent by apigen verify (an API with rpc:, not service:).", [:], uses: [.contractCheck]),
            key("baseURL", [.defaults] + httpAPIs, "An absolute http or https URL; no query, fragment or password.", uses: [.importer, .exporter, .contractCheck, .mockServer]),
            key("parameters", httpAPIs, "By name: a mapping. By position (params: byPosition): a list of one-entry mappings.", ["oneOf": [
                ["type": "object", "additionalProperties": ["$ref": "#/definitions/parameter"]],
                ["type": "array", "items": ["type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": ["$ref": "#/definitions/parameter"]]],
            ]], uses: [.importer, .exporter, .contractCheck]),
            key("params", rpcAPIs, "byName (a JSON object) or byPosition (a JSON array).", keywords(ParameterStructure.self), uses: [.exporter, .contractCheck]),
            key("body", [.restAPI], "How body parameters are encoded (json, form, multipart), or the whole body: a type, bytes, or { type, contentType, name }.",
                ["anyOf": [keywords(BodyEncoding.self), typeExpression, ["$ref": "#/definitions/wholeBody"]]], uses: [.importer, .exporter]),
            key("response", httpAPIs, "A model, [Model], [String: T], a scalar, String, JSON, bytes, none, or a stream: { events: T } or { jsonLines: T }.", ["anyOf": [
                typeExpression,
                ["type": "object", "additionalProperties": false, "minProperties": 1, "maxProperties": 1,
                 "properties": ["events": typeExpression, "jsonLines": typeExpression]] as [String: Any],
            ]], uses: [.importer, .exporter, .contractCheck, .mockServer]),
            key("responses", [.defaults, .restAPI], "Bodies by status: { 200: User, 422: ValidationErrors, default: Problem }; error bodies are models.", [
                "type": "object", "propertyNames": ["pattern": "^([1-5][0-9][0-9]|default)$"], "additionalProperties": typeExpression,
            ], uses: [.importer, .exporter, .contractCheck]),
            key("responseHeaders", [.restAPI], "Reply headers read as types: { etag: { type: String, name: ETag } }; startWithHeaders() returns them.",
                ["type": "object", "additionalProperties": ["$ref": "#/definitions/responseHeader"]], uses: [.importer, .exporter]),
            key("errorData", rpcAPIs, "The model an RPC error object's data member decodes into (APIError.serverError).", typeExpression, uses: []),
            key("notification", rpcAPIs, "Sent without an id; no reply is awaited.", boolean, uses: [.exporter, .contractCheck]),
            key("envelope", rpcAPIs, "Extra members of the RPC envelope.", ["type": "object"], uses: [.contractCheck]),
            key("delegate", [.rpcAPI], "The Swift type conforming to RPCDelegate that wraps the calls.", uses: []),
            key("headers", [.defaults], "Headers sent with every call.", scalars, uses: [.importer, .contractCheck]),
            key("headers", httpAPIs, "Headers sent with every call.", scalars, uses: [.contractCheck]),
            key("maxConnectionsPerHost", [.defaults], "Connections one session opens to a host at most.", ["type": "integer", "minimum": 1], uses: []),
            key("metadata", [.grpcSettings, .grpcAPI], "gRPC metadata sent with every call (lowercase keys; -bin keys take base64).", scalars, uses: [.contractCheck]),
            key("timeout", [.defaults], "Seconds; decimals allowed.", seconds, uses: [.importer]),
            key("timeout", httpAPIs, "Seconds; decimals allowed.", seconds, uses: []),
            key("deadline", [.grpcSettings, .grpcAPI], "Seconds a gRPC call may take, a stream's whole life included.", seconds, uses: []),
            key("frequency", [.defaults] + apis, "What to do with a call identical to one in flight: allow, reject or coalesce (share its result).", keywords(FrequencyPolicy.self), uses: []),
            key("retry", [.defaults] + apis, "Retries: none, or { attempts, delay, maxDelay, statuses, nonIdempotent }.",
                ["oneOf": [["const": "none"], ["$ref": "#/definitions/retry"]]], uses: []),
            key("rateLimit", [.defaults] + apis, "At most `calls` calls every `per` seconds, per api or host; wait (default) or fail.", ["$ref": "#/definitions/rateLimit"], uses: []),
            key("significantHeaders", apis, "The only headers whose values make two calls different for the frequency policy ([] for none); without it, every header counts.", strings, uses: []),
            key("tags", apis, "Groups for APIManager.cancel(tag:), and for removing cached replies (invalidates:, manager.cache.removeAll(tagged:)).", strings, uses: [.importer, .exporter]),
            key("cache", [.defaults] + apis, "How replies are kept and reused: http (as the server's Cache-Control, Expires, ETag and Vary say) or { ttl, staleWhileRevalidate, staleIfError, revalidate, scope }. For REST GET and HEAD, and RPC methods marked safe.",
                ["oneOf": [["const": "http"], ["$ref": "#/definitions/cache"]]], uses: []),
            key("invalidates", apis, "Tags whose cached replies a successful call of this API removes: a mutation drops what it made stale.", strings, uses: []),
            key("safe", [.jsonrpcAPI, .rpcAPI, .grpcAPI], "true: the method has no side effects, so its replies may be cached (a gRPC method whose proto says NO_SIDE_EFFECTS is safe already).", boolean, uses: [.contractCheck]),
            key("skipInterceptors", apis, "Global interceptors this API goes without, by name: logging, metrics, authentication, or your own.", strings, uses: [.importer, .contractCheck]),
            key("authenticated", apis, "Whether the authentication interceptor's token goes with this API's calls. Without it, only an API on its workspace's default base URL's origin carries it; true for one of the app's own servers elsewhere, false for none.", boolean, uses: [.contractCheck]),
            key("sample", httpAPIs, "What the API answers when the manager answers from samples: { status, body, delay }; debug builds only.", ["$ref": "#/definitions/sample"], uses: [.importer, .mockServer]),
            // Policies.
            key("attempts", [.retry], "Attempts in all, the first included: 1 to 10.", ["type": "integer", "minimum": 1, "maximum": 10], uses: []),
            key("delay", [.retry], "Seconds before the first retry (0, or at least 0.001); doubles each time, with jitter.", ["type": "number", "minimum": 0], uses: []),
            key("maxDelay", [.retry], "The longest pause between attempts, in seconds.", ["type": "number", "minimum": 0], uses: []),
            key("statuses", [.retry], "The statuses retried; default 408, 429, 500, 502, 503, 504.",
                ["type": "array", "items": ["type": "integer", "minimum": 100, "maximum": 599]], uses: []),
            key("nonIdempotent", [.retry], "true: retry POST, PATCH and RPC calls too, which the server must make safe to repeat.", boolean, uses: []),
            key("calls", [.rateLimit], "Calls allowed every `per` seconds (a token bucket: bursts up to this).", ["type": "integer", "minimum": 1], uses: []),
            key("per", [.rateLimit], "Seconds, at least 0.001.", ["type": "number", "minimum": 0.001], uses: []),
            key("scope", [.rateLimit], "api (default): this API's own bucket; host: one bucket per host.", keywords(RateLimitScope.self), uses: []),
            key("when", [.rateLimit], "wait (default, within the call's timeout) or fail at once with .rateLimited.", keywords(RateLimitBehavior.self), uses: []),
            key("ttl", [.cache], "Seconds a reply is fresh for, whatever the server says; without it, the server's headers decide.", ["type": "integer", "minimum": 0], uses: []),
            key("staleWhileRevalidate", [.cache], "Seconds after going stale during which the reply is served at once while it is refreshed in the background.", ["type": "integer", "minimum": 0], uses: []),
            key("staleIfError", [.cache], "Seconds after going stale during which the reply is served when the network or the server fails.", ["type": "integer", "minimum": 0], uses: []),
            key("revalidate", [.cache], "Whether a stale REST reply is checked with If-None-Match or If-Modified-Since (a 304 refreshes it); default true.", boolean, uses: []),
            key("scope", [.cache], "credential (default): each credential its own replies; shared: one reply for every caller.", keywords(CacheScope.self), uses: []),
            key("status", [.sample], "The reply's status; default 200.", ["type": "integer", "minimum": 100, "maximum": 599], uses: [.importer, .mockServer]),
            key("body", [.sample], "The reply's JSON body.", [:], uses: [.importer, .mockServer]),
            key("delay", [.sample], "Seconds before the answer (0, or at least 0.001).", ["type": "number", "minimum": 0], uses: [.mockServer]),
        ]
    }

    /// The raw value types an enum may declare with `type:`; `String` is the default.
    public static let enumRawTypes = ["String", "Int", "Int32", "Int64"]

    /// The names of the keys allowed at each place, in table order.
    private static let namesByPlace: [KeyPlace: [String]] = {
        var names: [KeyPlace: [String]] = [:]
        for key in all {
            for place in key.places where names[place, default: []].contains(key.name) == false {
                names[place, default: []].append(key.name)
            }
        }
        return names
    }()

    /// The names of the keys `tool` reads or writes at `place`.
    public static func names(usedBy tool: KeyTool, in place: KeyPlace) -> Set<String> {
        guard tool.places.contains(place) else { return [] }
        return Set(all.filter { $0.uses.contains(tool) && $0.places.contains(place) }.map(\.name))
    }

    /// The keys allowed at `place`, in the order messages list them.
    public static func names(in place: KeyPlace) -> [String] {
        namesByPlace[place] ?? []
    }

    /// The keys of `place` with their schemas, each with its doc as its description.
    static func properties(in place: KeyPlace) -> [String: Any] {
        var properties: [String: Any] = [:]
        for key in all where key.places.contains(place) {
            var schema = key.schema
            schema["description"] = key.doc
            properties[key.name] = schema
        }
        return properties
    }

    private static func keywords<K: ManifestKeyword>(_: K.Type) -> [String: Any] {
        ["type": "string", "enum": K.allCases.map(\.rawValue)]
    }

    /// docs/manifest-keys.md: every key, a table per place where keys appear.
    public static var markdownPage: String {
        var text = """
            <!-- Generated by `apigen schema --markdown` (make schema) from ManifestKeys. Do not edit. -->
            # Every manifest key

            Each key of the manifest format, where it may appear and what it says, from the table the
            manifest reader checks keys against and `apigen schema` describes them with.
            [The manifest format](manifest.md) shows them in use. A mark says which of the other
            tools has a use for the key: `apigen import openapi` writes it, `apigen export` carries
            its meaning into the document, `apigen verify` calls or judges by it, `apigen serve`
            answers by it.

            """
        let keys = all
        for place in KeyPlace.allCases {
            let tools = KeyTool.allCases
            text += "\n## \(place.title)\n\n| key | what it says | " + tools.map(\.title).joined(separator: " | ") + " |\n"
            text += "|---|---|" + String(repeating: ":-:|", count: tools.count) + "\n"
            for key in keys where key.places.contains(place) {
                let marks = tools.map { key.uses.contains($0) && $0.places.contains(place) ? "✓" : "" }
                text += "| `\(key.name)` | \(key.doc.replacingOccurrences(of: "|", with: "\\|")) | " + marks.joined(separator: " | ") + " |\n"
            }
        }
        return text
    }
}
