import APIManifest

/// Lays a description out as the values templates read. Every name, type and literal is final
/// here; templates only place them.
enum TemplateContext {
    /// Up to this many arguments, an initializer fits on one line.
    static let inlineArgumentLimit = 3

    static func workspace(_ workspace: WorkspaceDescription, workspaceFile: String) -> TemplateValue {
        let defaults = workspace.defaults
        var context: [String: TemplateValue] = [
            "access": .string(accessModifier(workspace.access)),
            "module": .string(workspace.module),
            "workspaceFile": .string(workspaceFile),
            "hasHeaders": .bool(!defaults.headers.isEmpty),
            "headers": .list(defaults.headers.map(header)),
        ]
        context["frequency"] = defaults.frequency.map { .string($0.rawValue) }
        context["retry"] = defaults.retry.map { .string(retryExpression($0)) }
        context["rateLimit"] = defaults.rateLimit.map { .string(rateLimitExpression($0)) }
        context["errorResponses"] = errorResponsesExpression(defaults.errorResponses)
        context["baseURLLiteral"] = defaults.baseURL.map { .string(SwiftLiteral.string($0)) }
        context["timeout"] = defaults.timeoutSeconds.map { .string(SwiftLiteral.duration(seconds: $0)) }
        context["maxConnectionsPerHost"] = defaults.maxConnectionsPerHost.map { .string(String($0)) }
        return .object(context)
    }

    /// The modifier generated declarations start with: `public `, `package `, or nothing for
    /// internal, which hand-written code leaves unsaid.
    static func accessModifier(_ access: AccessLevel) -> String {
        access == .internal ? "" : access.rawValue + " "
    }

    /// An API's context; `manifest` is its manifest's path from the workspace's folder.
    static func api(_ api: APIDescription, access: AccessLevel, manifest: String) -> TemplateValue {
        let needsFoundation = api.parameters.contains { $0.type.needsFoundation } || api.response.type.needsFoundation
            || api.responseHeaders.contains { $0.type.needsFoundation }
        var context: [String: TemplateValue] = [
            "access": .string(accessModifier(access)),
            "imports": .strings((api.response.decoding.isEventStream ? ["APIEventStreams"] : []) + ["APIRuntime"] + (needsFoundation ? ["Foundation"] : [])),
            "docLines": .strings(api.docLines),
            "hasDocLines": .bool(!api.docLines.isEmpty),
            "manifest": .string(SwiftLiteral.commentLine(manifest)),
            "declaredName": .string(SwiftLiteral.commentLine(api.manifestName)),
            "className": .string(api.className),
            "responseType": .string(api.response.type.spelling),
            "decoding": .string(api.response.decoding.rawValue),
            "nameLiteral": .string(SwiftLiteral.string(api.manifestName)),
            "parameters": .list(api.parameters.map { parameter($0, builder: builderMethod($0, api), api: api) }),
            "hasParameters": .bool(api.parameters.contains { !$0.isDownloadDestination }),
            "parameterDocLines": .strings(parameterDocLines(api.parameters)),
            "inlineArguments": .bool(api.parameters.count <= inlineArgumentLimit),
            "hasHeaders": .bool(!api.headers.isEmpty),
            "headers": .list(api.headers.map(header)),
        ]
        context["baseURLLiteral"] = api.baseURL.map { .string(SwiftLiteral.string($0)) }
        context["timeout"] = api.timeoutSeconds.map { .string(SwiftLiteral.duration(seconds: $0)) }
        context["frequency"] = api.frequency.map { .string($0.rawValue) }
        context["retry"] = api.retry.map { .string(retryExpression($0)) }
        context["rateLimit"] = api.rateLimit.map { .string(rateLimitExpression($0)) }
        context["significantHeaders"] = api.significantHeaders.map { .string(arrayLiteral($0)) }
        context["tags"] = stringArray(api.tags)
        context["skippedInterceptors"] = stringArray(api.skippedInterceptors)
        context["authenticated"] = api.authenticated.map { .string(String($0)) }
        context["sample"] = api.sample.map { .string(sampleExpression($0)) }
        context["errorResponses"] = errorResponsesExpression(api.errorResponses)
        context["hasResponseHeaders"] = .bool(!api.responseHeaders.isEmpty)
        context["responseHeaders"] = .list(api.responseHeaders.map { header in
            var values = member(header.swiftName, header.type, docLines: header.docLines)
            values["wireNameLiteral"] = .string(SwiftLiteral.string(header.wireName))
            return .object(values)
        })
        if let rest = api.rest {
            context["method"] = .string(rest.method.rawValue)
            context["methodCase"] = .string(rest.method.rawValue.lowercased())
            context["path"] = .string(SwiftLiteral.docLines(rest.path).joined())
            context["pathLiteral"] = .string(SwiftLiteral.string(rest.path))
            context["summary"] = .string("`\(rest.method.rawValue) \(SwiftLiteral.docLines(rest.path).joined())`")
        }
        if let grpc = api.grpc {
            context["shape"] = .string(grpc.shape)
            context["rpcMethod"] = .string(SwiftLiteral.docLines(grpc.method).joined())
            context["rpcMethodLiteral"] = .string(SwiftLiteral.string(grpc.method))
            // `package.Service/Method`, validated against the protos: the service is all before the last `/`.
            let slash = grpc.method.lastIndex(of: "/") ?? grpc.method.startIndex
            context["serviceLiteral"] = .string(SwiftLiteral.string(String(grpc.method[..<slash])))
            context["methodNameLiteral"] = .string(SwiftLiteral.string(String(grpc.method[slash...].dropFirst())))
            context["requestType"] = .string(grpc.requestType)
            context["parametersType"] = .string(grpc.clientStreams ? "APIGRPC.GRPCRequestStream<\(grpc.requestType)>" : grpc.requestType)
            context["clientStreams"] = .bool(grpc.clientStreams)
            context["serverStreams"] = .bool(grpc.serverStreams)
            context["isIdempotent"] = .bool(grpc.isIdempotent)
            let shape = switch (grpc.clientStreams, grpc.serverStreams) {
            case (false, false): "unary"
            case (true, false): "clientStreaming"
            case (false, true): "serverStreaming"
            case (true, true): "bidirectionalStreaming"
            }
            context["shapeCase"] = .string(shape)
            context["summary"] = .string("gRPC \(grpc.shape) method `\(SwiftLiteral.docLines(grpc.method).joined())`")
            context["imports"] = .strings(["APIGRPC", "APIRuntime", "SwiftProtobuf"])
        }
        if let rpc = api.rpc {
            let isJSONRPC = api.kind == .jsonrpc
            context["protocolName"] = .string(isJSONRPC ? "JSON-RPC" : rpc.delegateType)
            context["wireCase"] = .string(isJSONRPC ? "jsonRPC" : "customRPC")
            context["methodType"] = .string(isJSONRPC ? "APIRuntime.JSONRPCMethod" : "APIRuntime.CustomRPCMethod")
            context["delegateExpression"] = isJSONRPC ? nil : .string(rpc.delegateType + "()")
            context["rpcMethod"] = .string(SwiftLiteral.docLines(rpc.method).joined())
            context["rpcMethodLiteral"] = .string(SwiftLiteral.string(rpc.method))
            context["isNotification"] = .bool(rpc.isNotification)
            context["path"] = rpc.path.isEmpty ? nil : .string(SwiftLiteral.docLines(rpc.path).joined())
            context["pathLiteral"] = rpc.path.isEmpty ? nil : .string(SwiftLiteral.string(rpc.path))
            let protocolName = isJSONRPC ? "JSON-RPC" : rpc.delegateType
            let place = rpc.path.isEmpty ? "" : " at `\(SwiftLiteral.docLines(rpc.path).joined())`"
            context["summary"] = .string("\(protocolName) \(rpc.isNotification ? "notification" : "method") `\(SwiftLiteral.docLines(rpc.method).joined())`\(place)")
            context["hasEnvelope"] = .bool(!rpc.envelope.isEmpty)
            context["envelope"] = .list(rpc.envelope.map { field in
                ["nameLiteral": .string(SwiftLiteral.string(field.name)), "valueLiteral": .string(SwiftLiteral.jsonValue(field.json))]
            })
        }
        return .object(context)
    }

    // MARK: Policies as Swift expressions

    static func retryExpression(_ retry: RetryDescription) -> String {
        if retry.isNone { return ".none" }
        var arguments = ["maxAttempts: \(retry.attempts ?? RetryPolicySettings.defaultAttempts)"]
        if let delay = retry.delaySeconds { arguments.append("baseDelay: " + SwiftLiteral.duration(seconds: delay)) }
        if let maxDelay = retry.maxDelaySeconds { arguments.append("maxDelay: " + SwiftLiteral.duration(seconds: maxDelay)) }
        if let statuses = retry.statuses { arguments.append("retryableStatuses: [\(statuses.map(String.init).joined(separator: ", "))]") }
        if retry.nonIdempotent { arguments.append("retriesNonIdempotent: true") }
        return "APIRuntime.RetryPolicy(\(arguments.joined(separator: ", ")))"
    }

    static func rateLimitExpression(_ limit: RateLimitDescription) -> String {
        var arguments = ["calls: \(limit.calls)", "per: " + SwiftLiteral.duration(seconds: limit.perSeconds)]
        if let scope = limit.scope { arguments.append("scope: .\(scope.rawValue)") }
        if let behavior = limit.behavior { arguments.append("behavior: .\(behavior.rawValue)") }
        return "APIRuntime.RateLimit(\(arguments.joined(separator: ", ")))"
    }

    /// `[APIRuntime.ErrorResponse(status: 404, NotFound.self), ...(default: Problem.self)]`, or
    /// nothing when none is declared.
    static func errorResponsesExpression(_ errors: [ErrorBodyDescription]) -> TemplateValue? {
        guard !errors.isEmpty else { return nil }
        let items = errors.map { error in
            error.status.map { "APIRuntime.ErrorResponse(status: \($0), \(error.swiftType).self)" }
                ?? "APIRuntime.ErrorResponse(default: \(error.swiftType).self)"
        }
        return .string("[" + items.joined(separator: ", ") + "]")
    }

    static func sampleExpression(_ sample: SampleDescription) -> String {
        var arguments = ["status: \(sample.status)"]
        if let json = sample.json { arguments.append("json: " + SwiftLiteral.string(json)) }
        if let delay = sample.delaySeconds { arguments.append("delay: " + SwiftLiteral.duration(seconds: delay)) }
        return "APIRuntime.StubResponse(\(arguments.joined(separator: ", ")))"
    }

    /// `["a", "b"]`, or nothing for no strings (a section that renders nothing).
    static func stringArray(_ strings: [String]) -> TemplateValue? {
        strings.isEmpty ? nil : .string(arrayLiteral(strings))
    }

    /// `["a", "b"]`, `[]` for none.
    static func arrayLiteral(_ strings: [String]) -> String {
        "[" + strings.map(SwiftLiteral.string).joined(separator: ", ") + "]"
    }

    /// The `RequestBuilder` method that puts a parameter where it travels.
    private static func builderMethod(_ parameter: ParameterDescription, _ api: APIDescription) -> String {
        if let rpc = api.rpc { return rpc.structure == .byPosition ? "positional" : "body" }
        switch parameter.location {
        case .path: return "path"
        case .query: return "query"
        case .header: return "header"
        case .body:
            switch api.rest?.body {
            case .value: return "jsonBody"
            case .bytes: return "bytes"
            case .fields(.form): return "form"
            case .fields(.multipart): return parameter.isJSONPart ? "jsonPart" : "part"
            case .fields(.json), nil: return "body"
            }
        }
    }

    /// A manifest's types, for `models.mustache`: the imports they need between them, and each
    /// one's context for the `model` or `enum` partial.
    /// A manifest's types; `manifest` is its path from the workspace's folder.
    static func models(_ models: [ModelDescription], access: AccessLevel, manifest: String) -> TemplateValue {
        var needsRuntime = false, needsFoundation = false
        for model in models {
            switch model.shape {
            case .enumeration:
                needsRuntime = true // an enum is a `ParameterValue`
            case .structure(let fields):
                needsRuntime = needsRuntime || !model.derivesCoding || fields.contains { $0.type.spelling.contains("APIRuntime.") }
                needsFoundation = needsFoundation || fields.contains { $0.type.needsFoundation }
            case .union(let union):
                needsRuntime = needsRuntime || union.alternatives.contains { $0.type.spelling.contains("APIRuntime.") }
                needsFoundation = needsFoundation || union.alternatives.contains { $0.type.needsFoundation }
            }
        }
        let imports = (needsRuntime ? ["APIRuntime"] : []) + (needsFoundation ? ["Foundation"] : [])
        return [
            "imports": .strings(imports),
            "hasImports": .bool(!imports.isEmpty),
            "models": .list(models.map { model($0, access: access, manifest: manifest) }),
        ]
    }

    static func model(_ model: ModelDescription, access: AccessLevel, manifest: String) -> TemplateValue {
        var context: [String: TemplateValue] = [
            "access": .string(accessModifier(access)),
            "manifest": .string(SwiftLiteral.commentLine(manifest)),
            "declaredName": .string(SwiftLiteral.commentLine(model.manifestName)),
            "swiftName": .string(model.swiftName),
            "docLines": .strings(model.docLines),
        ]
        switch model.shape {
        case .structure(let fields):
            context["isStruct"] = true
            let coded = fields.map { field in
                var values = member(field.swiftName, field.type, docLines: field.docLines, defaultLiteral: field.defaultLiteral)
                if field.jsonKey != field.swiftName.trimmingBackticks {
                    values["customKeyLiteral"] = .string(SwiftLiteral.string(field.jsonKey))
                }
                values["decodeExpression"] = .string(decodeExpression(field))
                values["encodeStatement"] = .string(encodeStatement(field))
                return TemplateValue.object(values)
            }
            var stored = coded
            if model.keepsAdditionalProperties {
                stored.append(.object(member(
                    "additionalProperties", SwiftType(spelling: "[String: APIRuntime.JSONValue]", isOptional: false, needsFoundation: false),
                    docLines: ["Members of the JSON object that this type does not declare, kept as they came."], defaultLiteral: "[:]"
                )))
            }
            context["fields"] = .list(stored)
            context["codedFields"] = .list(coded)
            // Model-level: `{{binding}}` inside the fields section finds it on the context stack.
            context["isMutable"] = .bool(model.isMutable)
            context["isErrorBody"] = .bool(model.isErrorBody)
            context["binding"] = .string(model.isMutable ? "var" : "let")
            let hasCustomKeys = fields.contains { $0.jsonKey != $0.swiftName.trimmingBackticks }
            context["hasCustomKeys"] = .bool(hasCustomKeys)
            let writesEncoding = model.keepsAdditionalProperties || fields.contains { $0.dateFormat != .iso8601 }
            // Swift synthesizes the coding keys unless both halves of Codable are written out;
            // they are spelled out only when one differs from its field or they must be listed.
            context["hasCodingKeys"] = .bool(hasCustomKeys || model.keepsAdditionalProperties || (!model.derivesCoding && writesEncoding))
            context["writesDecoding"] = .bool(!model.derivesCoding)
            context["writesEncoding"] = .bool(writesEncoding)
            context["keepsAdditionalProperties"] = .bool(model.keepsAdditionalProperties)
            context["hasFields"] = .bool(!stored.isEmpty)
            context["inlineArguments"] = .bool(stored.count <= inlineArgumentLimit)
        case .union(let union):
            context["isUnion"] = true
            context["alternatives"] = .list(union.alternatives.map { alternative in
                var values: [String: TemplateValue] = ["caseName": .string(alternative.caseName), "type": .string(alternative.type.spelling)]
                values["valueLiteral"] = alternative.discriminatorValue.map { .string(SwiftLiteral.string($0)) }
                return .object(values)
            })
            context["alternativeNames"] = .string(union.alternatives.map { $0.type.spelling }.joined(separator: ", "))
            if let discriminator = union.discriminator {
                let caseName = SwiftIdentifier.make(from: discriminator, capitalized: false)
                context["discriminatorCase"] = .string(SwiftIdentifier.escaped(caseName))
                if caseName != discriminator {
                    context["discriminatorKeyLiteral"] = .string(SwiftLiteral.string(discriminator))
                }
                context["discriminatorText"] = .string(SwiftLiteral.docLines(discriminator).joined())
            }
        case .enumeration(let enumeration):
            context["isEnum"] = true
            context["isFrozen"] = .bool(enumeration.isFrozen)
            context["rawType"] = .string(enumeration.rawType)
            context["unknownCase"] = .string(enumeration.unknownCase)
            let isText = enumeration.rawType == "String"
            context["cases"] = .list(enumeration.cases.map { enumCase in
                let literal = isText ? SwiftLiteral.string(enumCase.rawValue) : enumCase.rawValue
                var values: [String: TemplateValue] = ["swiftName": .string(enumCase.swiftName), "rawValueLiteral": .string(literal)]
                // A frozen enum spells only the raw values Swift would not give a case by itself.
                if !isText || enumCase.rawValue != enumCase.swiftName.trimmingBackticks {
                    values["customRawValueLiteral"] = .string(literal)
                }
                return .object(values)
            })
        }
        return .object(context)
    }

    /// DocC's `- Parameters:` list for an API's initializer, from the parameters' descriptions.
    private static func parameterDocLines(_ parameters: [ParameterDescription]) -> [String] {
        let documented = parameters.filter { !$0.docLines.isEmpty }
        guard !documented.isEmpty else { return [] }
        return ["- Parameters:"] + documented.flatMap { parameter in
            let name = parameter.swiftName.trimmingCharacters(in: ["`"])
            return ["  - \(name): \(parameter.docLines[0])"] + parameter.docLines.dropFirst().map { "    \($0)" }
        }
    }

    private static func parameter(_ parameter: ParameterDescription, builder: String, api: APIDescription) -> TemplateValue {
        var values = member(parameter.swiftName, parameter.type, docLines: parameter.docLines, defaultLiteral: parameter.defaultLiteral)
        let argument = parameter.swiftName.trimmingBackticks == "self" ? "selfValue" : parameter.swiftName
        values["valueExpression"] = .string(wireValue(argument, parameter.dateFormat, isOptional: parameter.type.isOptional))
        // A download's destination is the response decoder's, not the request's.
        guard !parameter.isDownloadDestination else { return .object(values) }
        values["builderMethod"] = .string(builder)
        // By-position parameters and a whole JSON body have no name on the wire; bytes have a
        // content type instead.
        switch (builder, api.rest?.body) {
        case ("positional", _), ("jsonBody", _): break
        case ("bytes", .bytes(let contentType)?): values["wireNameLiteral"] = .string(SwiftLiteral.string(contentType))
        case _: values["wireNameLiteral"] = .string(SwiftLiteral.string(parameter.wireName))
        }
        return .object(values)
    }

    /// What the property and initializer templates read of a model's field or an API's parameter:
    /// `defaultArgument` is the initializer argument's default, nil for an optional.
    private static func member(_ swiftName: String, _ type: SwiftType, docLines: [String], defaultLiteral: String? = nil) -> [String: TemplateValue] {
        // A parameter named `self` would hide `self` in the initializer: it takes another
        // internal name, and keeps `self` as its label.
        let isSelf = swiftName.trimmingBackticks == "self"
        var values: [String: TemplateValue] = [
            "swiftName": .string(swiftName),
            "parameter": .string(isSelf ? "self selfValue" : swiftName),
            "argument": .string(isSelf ? "selfValue" : swiftName),
            "label": .string(SwiftIdentifier.argumentLabel(swiftName)),
            "type": .string(type.spelling),
            "isOptional": .bool(type.isOptional),
            "docLines": .strings(docLines),
        ]
        values["defaultArgument"] = (defaultLiteral ?? (type.isOptional ? "nil" : nil)).map { .string($0) }
        return values
    }

    /// How a written-out `init(from:)` reads a field from `container`.
    static func decodeExpression(_ field: FieldDescription) -> String {
        let key = "forKey: .\(field.swiftName)"
        let type = field.type.unwrappedSpelling
        switch (field.dateFormat, field.type.isOptional) {
        case (.iso8601, false):
            if let fallback = field.defaultLiteral { return "try container.decodeIfPresent(\(type).self, \(key)) ?? \(fallback)" }
            return "try container.decode(\(type).self, \(key))"
        case (.iso8601, true):
            return "try container.decodeIfPresent(\(type).self, \(key))"
        case (let format, false):
            return "APIRuntime.UnixTime.date(\(unixUnit(format)): try container.decode(Double.self, \(key)))"
        case (let format, true):
            return "try container.decodeIfPresent(Double.self, \(key)).map { APIRuntime.UnixTime.date(\(unixUnit(format)): $0) }"
        }
    }

    /// How a written-out `encode(to:)` writes a field into `container`.
    static func encodeStatement(_ field: FieldDescription) -> String {
        let key = "forKey: .\(field.swiftName)"
        let method = field.type.isOptional ? "encodeIfPresent" : "encode"
        return "try container.\(method)(\(wireValue("self.\(field.swiftName)", field.dateFormat, isOptional: field.type.isOptional)), \(key))"
    }

    /// `value` as it is written on the wire: a date in a Unix format as its number.
    static func wireValue(_ value: String, _ format: DateFormat, isOptional: Bool) -> String {
        guard format != .iso8601 else { return value }
        let unit = unixUnit(format)
        return isOptional ? "\(value).map { APIRuntime.UnixTime.\(unit)($0) }" : "APIRuntime.UnixTime.\(unit)(\(value))"
    }

    private static func unixUnit(_ format: DateFormat) -> String {
        format == .unixMilliseconds ? "milliseconds" : "seconds"
    }

    private static func header(_ header: HeaderDescription) -> TemplateValue {
        ["nameLiteral": .string(SwiftLiteral.string(header.name)), "valueLiteral": .string(SwiftLiteral.string(header.value))]
    }
}
