/// Reads one API file's node tree into an `APIFileManifest`.
enum APIFileReader {
    static let fileKeys = ManifestKeys.names(in: .apiFile)
    static let grpcKeys = ManifestKeys.names(in: .grpcSettings)
    static let modelKeys = ManifestKeys.names(in: .type)
    /// The raw value types an enum may declare with `type:`; `String` is the default.
    public static let enumRawTypes = ManifestKeys.enumRawTypes
    static let fieldKeys = ManifestKeys.names(in: .field)
    static let parameterKeys = ManifestKeys.names(in: .parameter)
    static let responseHeaderKeys = ManifestKeys.names(in: .responseHeader)
    static let wholeBodyKeys = ManifestKeys.names(in: .wholeBody)

    /// The keys an API of each kind may have, in the order messages list them; without a known
    /// kind, those of every kind.
    static func apiKeys(for kind: APIKind?) -> [String] {
        if let kind { return ManifestKeys.names(in: .api(kind)) }
        var union: [String] = []
        for kind in APIKind.allCases {
            for name in ManifestKeys.names(in: .api(kind)) where !union.contains(name) { union.append(name) }
        }
        return union
    }

    static func read(_ root: YAMLNode, into diagnostics: inout Diagnostics) -> APIFileManifest {
        var manifest = APIFileManifest(file: root.file, types: [], apis: [])
        if root.isNull { return manifest }
        guard let mapping = root.requireMapping("an API file", into: &diagnostics) else { return manifest }
        mapping.reportUnknownKeys(allowed: fileKeys, in: "an API file", into: &diagnostics)

        if let types = mapping["types"]?.requireMapping("types", into: &diagnostics) {
            manifest.types = types.entries.compactMap { readType($0, into: &diagnostics) }
        }
        if let apis = mapping["apis"]?.requireMapping("apis", into: &diagnostics) {
            manifest.apis = apis.entries.compactMap { readAPI($0, into: &diagnostics) }
        }
        if let grpc = mapping["grpc"] {
            manifest.grpc = readGRPCSettings(grpc, into: &diagnostics)
        }
        if manifest.grpc == nil, let api = manifest.apis.first(where: { $0.kind.value == .grpc }) {
            diagnostics.error("API '\(api.name.value)' is of kind 'grpc', but this file has no 'grpc:' block naming its protos and server", at: api.kind.location)
        }
        return manifest
    }

    // MARK: gRPC

    static func readGRPCSettings(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> GRPCSettings? {
        guard let mapping = node.requireMapping("grpc", into: &diagnostics) else { return nil }
        mapping.reportUnknownKeys(allowed: grpcKeys, in: "'grpc:'", into: &diagnostics)
        let protos = mapping["protos"].map { PolicyReader.strings($0, "protos", into: &diagnostics) } ?? []
        if protos.isEmpty {
            diagnostics.error("'grpc:' needs 'protos:', the .proto files its APIs come from", at: node.location)
        }
        return GRPCSettings(
            location: node.location,
            protos: protos,
            importPaths: mapping["importPaths"].map { PolicyReader.strings($0, "importPaths", into: &diagnostics) } ?? [],
            target: mapping["target"]?.string("target", into: &diagnostics),
            tls: mapping["tls"]?.boolean("tls", into: &diagnostics),
            deadline: mapping["deadline"]?.seconds("deadline", into: &diagnostics),
            metadata: mapping["metadata"].map { node in node.stringPairs("metadata", into: &diagnostics).map { Header(name: $0.name, value: $0.value) } } ?? []
        )
    }

    static func readGRPC(_ mapping: YAMLMapping, name: Located<String>, context: String, into diagnostics: inout Diagnostics) -> GRPCEndpoint? {
        let rpc = mapping["rpc"]?.string("rpc", into: &diagnostics)
        let service = mapping["service"]?.string("service", into: &diagnostics)
        switch (mapping["rpc"], mapping["service"]) {
        case (nil, nil):
            diagnostics.error("\(context) of kind 'grpc' needs 'rpc: package.Service/Method', or 'service: package.Service' for all of its methods", at: name.location)
            return nil
        case (.some, .some):
            diagnostics.error("\(context) has both 'rpc:' and 'service:'; name one method or one whole service", at: name.location)
            return nil
        default:
            break
        }
        guard rpc != nil || service != nil else { return nil }
        let metadata = mapping["metadata"].map { node in node.stringPairs("metadata", into: &diagnostics).map { Header(name: $0.name, value: $0.value) } } ?? []
        return GRPCEndpoint(rpc: rpc, service: service, metadata: metadata)
    }

    // MARK: Types

    /// The key that says what a type is, and what that makes it, for messages.
    static let shapeKeys: KeyValuePairs = ["fields": "a model", "enum": "an enum", "oneOf": "a union", "swift": "a Swift type of the app's"]

    static func readType(_ entry: YAMLMapping.Entry, into diagnostics: inout Diagnostics) -> TypeDeclaration? {
        let context = "type '\(entry.key.value)'"
        guard let mapping = entry.value.requireMapping(context, into: &diagnostics) else { return nil }
        mapping.reportUnknownKeys(allowed: modelKeys, in: context, into: &diagnostics)
        let description = mapping["description"]?.string("description", into: &diagnostics)
        let shapes = shapeKeys.filter { mapping[$0.key] != nil }
        guard shapes.count == 1, let shape = shapes.first else {
            let keys = shapeKeys.map { "'\($0.key):' (\($0.value))" }
            if shapes.isEmpty {
                diagnostics.error("\(context) needs one of \(keys.joined(separator: ", "))", at: entry.key.location)
            } else {
                diagnostics.error("\(context) has \(shapes.map { "'\($0.key):'" }.joined(separator: " and ")); a type is one of \(keys.joined(separator: ", "))", at: entry.key.location)
            }
            return nil
        }
        // Keys that belong to one shape only.
        let owners = ["mutable": "fields", "additionalProperties": "fields", "type": "enum", "frozen": "enum", "discriminator": "oneOf", "mapping": "oneOf"]
        for (key, owner) in owners.sorted(by: { $0.key < $1.key }) where owner != shape.key {
            if let node = mapping[key] {
                let ownerShape = shapeKeys.first { $0.key == owner }!.value
                diagnostics.error("'\(key):' is for \(ownerShape) ('\(owner):'); \(context) is \(shape.value)", at: node.location)
            }
        }
        var declaration = TypeDeclaration(name: entry.key, description: description, shape: .external(Located("", at: entry.key.location)))
        switch shape.key {
        case "fields":
            guard let fieldMapping = mapping["fields"]!.requireMapping("fields of \(context)", into: &diagnostics) else { return nil }
            declaration.shape = .model(fields: fieldMapping.entries.compactMap { readField($0, into: &diagnostics) })
            declaration.mutable = mapping["mutable"]?.boolean("mutable", into: &diagnostics)
            declaration.additionalProperties = mapping["additionalProperties"]?.boolean("additionalProperties", into: &diagnostics)
        case "enum":
            guard let enumeration = readEnum(mapping, context: context, into: &diagnostics) else { return nil }
            declaration.shape = .enumeration(enumeration)
        case "oneOf":
            guard let union = readUnion(mapping, context: context, into: &diagnostics) else { return nil }
            declaration.shape = .union(union)
        default:
            guard let swiftType = mapping["swift"]!.string("swift", into: &diagnostics) else { return nil }
            declaration.shape = .external(swiftType)
        }
        return declaration
    }

    static func readEnum(_ mapping: YAMLMapping, context: String, into diagnostics: inout Diagnostics) -> EnumDeclaration? {
        let frozen = mapping["frozen"]?.boolean("frozen", into: &diagnostics)
        let rawType = mapping["type"]?.string("type", into: &diagnostics)
        if let rawType, !enumRawTypes.contains(rawType.value) {
            diagnostics.error(
                "'\(rawType.value)' cannot be the raw value type of \(context)\(Suggestion.hint(for: rawType.value, in: enumRawTypes)); use one of: \(enumRawTypes.joined(separator: ", "))",
                at: rawType.location
            )
            return nil
        }
        guard var cases = readEnumCases(mapping["enum"]!, context: context, into: &diagnostics) else { return nil }
        if let rawType, rawType.value != "String" {
            cases = cases.filter { enumCase in
                guard Self.integer(enumCase.rawValue.value, of: rawType.value) else {
                    diagnostics.error(
                        "raw value '\(enumCase.rawValue.value)' of case '\(enumCase.name.value)' is not an \(rawType.value); \(context) is an integer enum",
                        at: enumCase.rawValue.location
                    )
                    return false
                }
                return true
            }
        }
        return EnumDeclaration(cases: cases, rawType: rawType, frozen: frozen)
    }

    /// `oneOf: [Circle, Square]`, with `discriminator: kind` and, when the values differ from
    /// the types' names, `mapping: { circle: Circle }`.
    static func readUnion(_ mapping: YAMLMapping, context: String, into diagnostics: inout Diagnostics) -> UnionDeclaration? {
        let node = mapping["oneOf"]!
        guard let list = node.sequence else {
            diagnostics.error("'oneOf:' of \(context) must be a list of types, found \(node.shapeName)", at: node.location)
            return nil
        }
        let alternatives = list.compactMap { typeExpression($0, what: "an alternative of \(context)", into: &diagnostics) }
        guard alternatives.count == list.count else { return nil }
        guard alternatives.count >= 2 else {
            diagnostics.error("\(context) needs at least two alternatives under 'oneOf:'", at: node.location)
            return nil
        }
        let discriminator = mapping["discriminator"]?.string("discriminator", into: &diagnostics)
        var values: [(value: Located<String>, type: Located<String>)] = []
        if let node = mapping["mapping"], let pairs = node.requireMapping("mapping of \(context)", into: &diagnostics) {
            for entry in pairs.entries {
                if let type = entry.value.string("the type of '\(entry.key.value)'", into: &diagnostics) {
                    values.append((entry.key, type))
                }
            }
            if discriminator == nil {
                diagnostics.error("'mapping:' of \(context) needs 'discriminator:', the property whose value it maps", at: node.location)
            }
        }
        return UnionDeclaration(alternatives: alternatives, discriminator: discriminator, mapping: values)
    }

    static func readField(_ entry: YAMLMapping.Entry, into diagnostics: inout Diagnostics) -> FieldDeclaration? {
        let typed = readTyped(entry, kind: "field", allowedKeys: fieldKeys, into: &diagnostics)
        guard let type = typed.type else { return nil }
        return FieldDeclaration(
            name: entry.key, type: type,
            jsonKey: typed.details?["json"]?.string("json", into: &diagnostics),
            description: typed.details?["description"]?.string("description", into: &diagnostics),
            defaultValue: typed.details?["default"].flatMap { defaultValue($0, into: &diagnostics) },
            format: typed.details?["format"]?.keyword(DateFormat.self, "date format", into: &diagnostics)
        )
    }

    /// Fields and parameters come in a short form, `name: Type`, or a long form whose mapping has
    /// `type:` and other details. Returns the type, and the mapping for the long form.
    static func readTyped(
        _ entry: YAMLMapping.Entry, kind: String, allowedKeys: [String],
        into diagnostics: inout Diagnostics
    ) -> (type: Located<TypeExpression>?, details: YAMLMapping?) {
        let context = "\(kind) '\(entry.key.value)'"
        guard let details = entry.value.mapping else {
            return (typeExpression(entry.value, what: "the type of \(context)", into: &diagnostics), nil)
        }
        details.reportUnknownKeys(allowed: allowedKeys, in: context, into: &diagnostics)
        guard let typeNode = details["type"] else {
            diagnostics.error("\(context) needs 'type:'", at: entry.key.location)
            return (nil, details)
        }
        return (typeExpression(typeNode, what: "the type of \(context)", into: &diagnostics), details)
    }

    /// `default:` of a field or parameter: a scalar, as written; checked against the type later.
    static func defaultValue(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> Located<String>? {
        guard let text = node.scalarText else {
            diagnostics.error("'default:' must be a single value (a number, text, true or false), found \(node.shapeName)", at: node.location)
            return nil
        }
        return Located(text, at: node.location)
    }

    /// Whether `text` is an integer in the range of `type` (`Int`, `Int32` or `Int64`).
    static func integer(_ text: String, of type: String) -> Bool {
        guard let value = Int64(text) else { return false }
        return type != "Int32" || Int32(exactly: value) != nil
    }

    /// `enum: [a, b]` (case name = raw value) or `enum: { caseName: raw-value }`.
    static func readEnumCases(_ node: YAMLNode, context: String, into diagnostics: inout Diagnostics) -> [EnumCaseDeclaration]? {
        if let list = node.sequence {
            guard !list.isEmpty else {
                diagnostics.error("\(context) needs at least one case", at: node.location)
                return nil
            }
            return list.compactMap { item in
                item.string("an enum case", into: &diagnostics).map { EnumCaseDeclaration(name: $0, rawValue: $0) }
            }
        }
        if let mapping = node.mapping {
            guard !mapping.entries.isEmpty else {
                diagnostics.error("\(context) needs at least one case", at: node.location)
                return nil
            }
            return mapping.entries.compactMap { entry in
                entry.value.possiblyEmptyString("the raw value of case '\(entry.key.value)'", into: &diagnostics)
                    .map { EnumCaseDeclaration(name: entry.key, rawValue: $0) }
            }
        }
        diagnostics.error("'enum:' of \(context) must be a list of cases or a mapping of case names to raw values", at: node.location)
        return nil
    }

    // MARK: APIs

    static func readAPI(_ entry: YAMLMapping.Entry, into diagnostics: inout Diagnostics) -> APIDeclaration? {
        let context = "API '\(entry.key.value)'"
        guard let mapping = entry.value.requireMapping(context, into: &diagnostics) else { return nil }
        let kind = mapping["kind"].map { $0.keyword(APIKind.self, "API kind", into: &diagnostics) }
            ?? Located(.rest, at: entry.key.location)
        mapping.reportUnknownKeys(allowed: apiKeys(for: kind?.value), in: context, into: &diagnostics)

        let description = mapping["description"]?.string("description", into: &diagnostics)
        let parameters = mapping["parameters"].map { readParameters($0, context: context, into: &diagnostics) }
        // A mapping is a stream of values (`{ events: Message }`); anything else a type.
        let responseNode = mapping["response"]
        let responseStream = responseNode?.mapping == nil ? nil : responseNode.flatMap { readResponseStream($0, into: &diagnostics) }
        let response = responseNode?.mapping == nil ? responseNode.flatMap { readResponse($0, into: &diagnostics) } : nil
        let headers = Headers.read(mapping["headers"], into: &diagnostics)
        // A gRPC API's time limit is its deadline, the word gRPC uses; it is the same setting.
        let timeout = (mapping["timeout"] ?? mapping["deadline"])?.seconds(mapping["deadline"] != nil ? "deadline" : "timeout", into: &diagnostics)
        let frequency = mapping["frequency"]?.keyword(FrequencyPolicy.self, "frequency policy", into: &diagnostics)
        let baseURL = mapping["baseURL"]?.string("baseURL", into: &diagnostics)
        let retry = mapping["retry"].flatMap { PolicyReader.retry($0, into: &diagnostics) }
        let rateLimit = mapping["rateLimit"].flatMap { PolicyReader.rateLimit($0, into: &diagnostics) }
        let significantHeaders = mapping["significantHeaders"].map { PolicyReader.strings($0, "significantHeaders", into: &diagnostics) }
        let tags = mapping["tags"].map { PolicyReader.strings($0, "tags", into: &diagnostics) } ?? []
        let skipInterceptors = mapping["skipInterceptors"].map { PolicyReader.strings($0, "skipInterceptors", into: &diagnostics) } ?? []
        let sample = mapping["sample"].flatMap { PolicyReader.sample($0, into: &diagnostics) }
        let authenticated = mapping["authenticated"]?.boolean("authenticated", into: &diagnostics)

        guard let kind else { return nil }
        var api = APIDeclaration(
            name: entry.key, kind: kind, description: description, parameters: parameters?.declarations ?? [],
            response: response, headers: headers, timeout: timeout, frequency: frequency,
            retry: retry, rateLimit: rateLimit, significantHeaders: significantHeaders, tags: tags,
            skipInterceptors: skipInterceptors, sample: sample,
            baseURL: baseURL, parametersAreListed: parameters?.listed, rest: nil, rpc: nil
        )
        api.responseStream = responseStream
        api.authenticated = authenticated
        api.cache = mapping["cache"].flatMap { PolicyReader.cache($0, into: &diagnostics) }
        api.invalidates = mapping["invalidates"].map { PolicyReader.strings($0, "invalidates", into: &diagnostics) } ?? []
        api.safe = mapping["safe"]?.boolean("safe", into: &diagnostics)
        api.example = mapping["example"].flatMap { node in node.jsonText(into: &diagnostics).map { Located($0, at: node.location) } }
        api.responses = mapping["responses"].map { readResponses($0, into: &diagnostics) } ?? []
        api.errorData = mapping["errorData"].flatMap { typeExpression($0, what: "errorData", into: &diagnostics) }
        api.responseHeaders = mapping["responseHeaders"].map { readResponseHeaders($0, into: &diagnostics) } ?? []
        switch kind.value {
        case .rest:
            api.rest = readREST(mapping, name: entry.key, context: context, into: &diagnostics)
            if api.rest == nil { return nil }
        case .jsonrpc, .rpc:
            api.rpc = readRPC(mapping, name: entry.key, kind: kind.value, context: context, into: &diagnostics)
            if api.rpc == nil { return nil }
        case .grpc:
            api.grpc = readGRPC(mapping, name: entry.key, context: context, into: &diagnostics)
            if api.grpc == nil { return nil }
        }
        return api
    }

    static func readRPC(_ mapping: YAMLMapping, name: Located<String>, kind: APIKind, context: String, into diagnostics: inout Diagnostics) -> RPCEndpoint? {
        var url: Located<String>?
        var method: Located<String>?
        if let node = mapping["url"] {
            url = node.string("url", into: &diagnostics)
        } else {
            diagnostics.error("\(context) needs 'url:', the endpoint (an absolute URL, or a path joined to the base URL)", at: name.location)
        }
        if let node = mapping["method"] {
            method = node.string("method", into: &diagnostics)
        } else {
            diagnostics.error("\(context) needs 'method:', the name of the remote method", at: name.location)
        }
        let structure = mapping["params"]?.keyword(ParameterStructure.self, "parameter structure", into: &diagnostics)
        let notification = mapping["notification"]?.boolean("notification", into: &diagnostics)
        let envelope = mapping["envelope"].map { readEnvelope($0, into: &diagnostics) } ?? []
        var delegate: Located<String>?
        if kind == .rpc {
            if let node = mapping["delegate"] {
                delegate = node.string("delegate", into: &diagnostics)
            } else {
                diagnostics.error("\(context) of kind 'rpc' needs 'delegate:', the Swift type that wraps its calls", at: name.location)
            }
        }
        guard let url, let method else { return nil }
        return RPCEndpoint(url: url, method: method, structure: structure, isNotification: notification, envelope: envelope, delegate: delegate)
    }

    /// `envelope:` members, each value turned into the JSON text it spells.
    static func readEnvelope(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> [(name: Located<String>, json: Located<String>)] {
        guard let mapping = node.requireMapping("envelope", into: &diagnostics) else { return [] }
        return mapping.entries.compactMap { entry in
            guard let json = entry.value.jsonText(into: &diagnostics) else { return nil }
            return (entry.key, Located(json, at: entry.value.location))
        }
    }

    static func readREST(_ mapping: YAMLMapping, name: Located<String>, context: String, into diagnostics: inout Diagnostics) -> RESTEndpoint? {
        let method: Located<HTTPMethodName>?
        if let node = mapping["method"] {
            // A misspelled method is reported, then read as GET so the rest of the API is still
            // checked: one run shows every error. Nothing is generated from a run with errors.
            method = node.keyword(HTTPMethodName.self, "HTTP method", into: &diagnostics) ?? Located(.GET, at: node.location)
        } else {
            diagnostics.error("\(context) needs 'method:' (GET, POST, PUT, PATCH, DELETE or HEAD)", at: name.location)
            method = nil
        }
        var path: Located<String>?
        if let node = mapping["path"] {
            path = node.string("path", into: &diagnostics)
        } else {
            diagnostics.error("\(context) needs 'path:'", at: name.location)
        }
        var encoding: Located<BodyEncoding>?
        var wholeBody: WholeBodyDeclaration?
        if let node = mapping["body"] {
            if let text = node.scalarText, let keyword = BodyEncoding(rawValue: text) {
                encoding = Located(keyword, at: node.location)
            } else {
                wholeBody = readWholeBody(node, into: &diagnostics)
            }
        }
        guard let path else { return nil }
        return RESTEndpoint(method: method ?? Located(.GET, at: name.location), path: path, encoding: encoding, wholeBody: wholeBody)
    }

    /// `body: User`, `body: bytes`, or the long form `{ type: bytes, contentType: image/png, name: photo }`.
    static func readWholeBody(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> WholeBodyDeclaration? {
        var declaration = WholeBodyDeclaration(location: node.location)
        let typeNode: YAMLNode?
        if let details = node.mapping {
            details.reportUnknownKeys(allowed: wholeBodyKeys, in: "body", into: &diagnostics)
            typeNode = details["type"]
            if typeNode == nil { diagnostics.error("body needs 'type:' (json, form, multipart, bytes, or a type such as 'User')", at: node.location) }
            declaration.contentType = details["contentType"]?.string("contentType", into: &diagnostics)
            declaration.name = details["name"]?.string("name", into: &diagnostics)
            declaration.description = details["description"]?.string("description", into: &diagnostics)
        } else {
            typeNode = node
        }
        guard let typeNode else { return nil }
        if typeNode.scalarText == "bytes" { return declaration }
        if let text = typeNode.scalarText, BodyEncoding(rawValue: text) != nil {
            diagnostics.error("'\(text)' is an encoding of body parameters: write 'body: \(text)', not a 'type:'", at: typeNode.location)
            return nil
        }
        guard let type = typeExpression(typeNode, what: "body", into: &diagnostics) else { return nil }
        declaration.type = type
        return declaration
    }

    /// A mapping of parameters, or a list of one-entry mappings when their order matters
    /// (by-position RPC parameters).
    static func readParameters(_ node: YAMLNode, context: String, into diagnostics: inout Diagnostics) -> (declarations: [ParameterDeclaration], listed: Located<Bool>) {
        let entries: [YAMLMapping.Entry]
        if let list = node.sequence {
            entries = list.compactMap { item in
                guard let single = item.mapping, single.entries.count == 1 else {
                    diagnostics.error("each item of a parameter list is one 'name: Type' (or 'name: { type: ... }'), found \(item.shapeName)", at: item.location)
                    return nil
                }
                return single.entries[0]
            }
        } else if let mapping = node.requireMapping("parameters of \(context)", into: &diagnostics) {
            entries = mapping.entries
        } else {
            entries = []
        }
        let declarations = entries.compactMap { entry -> ParameterDeclaration? in
            let typed = readTyped(entry, kind: "parameter", allowedKeys: parameterKeys, into: &diagnostics)
            let details = typed.details
            let location = details?["in"]?.keyword(ParameterLocation.self, "parameter location", into: &diagnostics)
            let wireName = details?["name"]?.string("name", into: &diagnostics)
            let description = details?["description"]?.string("description", into: &diagnostics)
            let defaultText = details?["default"].flatMap { defaultValue($0, into: &diagnostics) }
            let format = details?["format"]?.keyword(DateFormat.self, "date format", into: &diagnostics)
            let example = details?["example"].flatMap { node in node.jsonText(into: &diagnostics).map { Located($0, at: node.location) } }
            guard let type = typed.type else { return nil }
            return ParameterDeclaration(
                name: entry.key, type: type, location: location, wireName: wireName, description: description,
                defaultValue: defaultText, format: format, example: example
            )
        }
        return (declarations, Located(node.sequence != nil, at: node.location))
    }

    /// `responseHeaders: { remaining: { type: Int, name: X-RateLimit-Remaining }, etag: String }`.
    static func readResponseHeaders(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> [ParameterDeclaration] {
        guard let mapping = node.requireMapping("responseHeaders", into: &diagnostics) else { return [] }
        return mapping.entries.compactMap { entry in
            let typed = readTyped(entry, kind: "response header", allowedKeys: responseHeaderKeys, into: &diagnostics)
            let wireName = typed.details?["name"]?.string("name", into: &diagnostics)
            let description = typed.details?["description"]?.string("description", into: &diagnostics)
            guard let type = typed.type else { return nil }
            return ParameterDeclaration(name: entry.key, type: type, location: nil, wireName: wireName, description: description)
        }
    }

    /// `responses: { 200: User, 404: NotFound, default: Problem }`: a type, or `none`, per status.
    static func readResponses(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> [StatusResponseDeclaration] {
        guard let mapping = node.requireMapping("responses", into: &diagnostics) else { return [] }
        return mapping.entries.compactMap { entry in
            let status: Int?
            if entry.key.value == "default" {
                status = nil
            } else if let code = Int(entry.key.value) {
                status = code
            } else {
                diagnostics.error("a key of 'responses:' is a status code such as 404, or 'default'; found '\(entry.key.value)'", at: entry.key.location)
                return nil
            }
            let type = readResponse(entry.value, into: &diagnostics)
            if type == nil, !(entry.value.isNull || entry.value.scalarText == "none") { return nil }
            return StatusResponseDeclaration(status: Located(status, at: entry.key.location), type: type)
        }
    }

    /// `response: { events: Message }` or `{ jsonLines: Entry }`.
    static func readResponseStream(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> ResponseStreamDeclaration? {
        guard let mapping = node.mapping else { return nil }
        guard mapping.entries.count == 1, let format = ResponseStreamDeclaration.Format(rawValue: mapping.entries[0].key.value) else {
            diagnostics.error("a streamed response is '{ events: Type }' (Server-Sent Events) or '{ jsonLines: Type }'; found \(mapping.entries.map { "'\($0.key.value)'" }.joined(separator: ", "))", at: node.location)
            return nil
        }
        let entry = mapping.entries[0]
        guard let type = typeExpression(entry.value, what: "response", into: &diagnostics) else { return nil }
        return ResponseStreamDeclaration(format: Located(format, at: entry.key.location), type: type)
    }

    /// `response: none` (or `~`) means no response body.
    static func readResponse(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> Located<TypeExpression>? {
        if node.isNull || node.scalarText == "none" { return nil }
        return typeExpression(node, what: "response", into: &diagnostics)
    }

    static func typeExpression(_ node: YAMLNode, what: String, into diagnostics: inout Diagnostics) -> Located<TypeExpression>? {
        // Unquoted `[User]` and `[String: Int]` are YAML flow collections; read them as the types they spell.
        if let elements = node.sequence {
            guard elements.count == 1 else {
                diagnostics.error("\(what) must be a type such as 'User', '[User]' or '[String: Int]', found a list of \(elements.count)", at: node.location)
                return nil
            }
            let element = elements[0]
            if let pairs = element.mapping {
                guard pairs.entries.count == 1, pairs.entries[0].key.value == "String" else {
                    diagnostics.error("dictionary keys must be String in \(what)", at: element.location)
                    return nil
                }
                return typeExpression(pairs.entries[0].value, what: what, into: &diagnostics)
                    .map { Located(.dictionary($0.value), at: node.location) }
            }
            return typeExpression(element, what: what, into: &diagnostics).map { Located(.array($0.value), at: node.location) }
        }
        guard let text = node.string(what, into: &diagnostics) else { return nil }
        do {
            return Located(try TypeExpression.parse(text.value), at: text.location)
        } catch {
            var location = text.location
            // Point at the offending character when the scalar is written plainly on one line.
            if !text.value.contains("\n") { location.column += error.offset }
            diagnostics.error("invalid type '\(text.value)': \(error.message)", at: location)
            return nil
        }
    }
}
