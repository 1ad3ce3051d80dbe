import APIManifest

/// Lays a description out as the values templates read. Every name, type and literal is final
/// here; templates only place them.
enum TemplateContext {
    /// Up to this many arguments, an initializer fits on one line.
    static let inlineArgumentLimit = 3

    static func workspace(_ workspace: WorkspaceDescription, workspaceFile: String) -> TemplateValue {
        let defaults = workspace.defaults
        var context: [String: TemplateValue] = [
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

    static func api(_ api: APIDescription) -> TemplateValue {
        let needsFoundation = api.parameters.contains { $0.type.needsFoundation } || api.response.type.needsFoundation
            || api.responseHeaders.contains { $0.type.needsFoundation }
        var context: [String: TemplateValue] = [
            "imports": .strings((api.response.decoding.isEventStream ? ["APIEventStreams"] : []) + ["APIRuntime"] + (needsFoundation ? ["Foundation"] : [])),
            "docLines": .strings(api.docLines),
            "hasDocLines": .bool(!api.docLines.isEmpty),
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
        context["significantHeaders"] = stringArray(api.significantHeaders)
        context["tags"] = stringArray(api.tags)
        context["skippedInterceptors"] = stringArray(api.skippedInterceptors)
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
        }
        if let grpc = api.grpc {
            context["shape"] = .string(grpc.shape)
            context["rpcMethod"] = .string(SwiftLiteral.docLines(grpc.method).joined())
            context["rpcMethodLiteral"] = .string(SwiftLiteral.string(grpc.method))
            context["pathLiteral"] = .string(SwiftLiteral.string("/" + grpc.method))
            // `package.Service/Method`, validated against the protos: the service is all before the last `/`.
            let slash = grpc.method.lastIndex(of: "/") ?? grpc.method.startIndex
            context["serviceLiteral"] = .string(SwiftLiteral.string(String(grpc.method[..<slash])))
            context["methodNameLiteral"] = .string(SwiftLiteral.string(String(grpc.method[slash...].dropFirst())))
            context["requestType"] = .string(grpc.requestType)
            context["parametersType"] = .string(grpc.clientStreams ? "GRPCRequestStream<\(grpc.requestType)>" : grpc.requestType)
            context["clientStreams"] = .bool(grpc.clientStreams)
            context["serverStreams"] = .bool(grpc.serverStreams)
            context["isIdempotent"] = .bool(grpc.isIdempotent)
        }
        if let rpc = api.rpc {
            context["protocolName"] = .string(api.kind == .jsonrpc ? "JSON-RPC" : rpc.delegateType)
            context["delegateType"] = .string(rpc.delegateType)
            context["rpcMethod"] = .string(SwiftLiteral.docLines(rpc.method).joined())
            context["rpcMethodLiteral"] = .string(SwiftLiteral.string(rpc.method))
            context["isNotification"] = .bool(rpc.isNotification)
            context["path"] = rpc.path.isEmpty ? nil : .string(SwiftLiteral.docLines(rpc.path).joined())
            context["pathLiteral"] = .string(SwiftLiteral.string(rpc.path))
            context["hasEnvelope"] = .bool(!rpc.envelope.isEmpty)
            context["envelope"] = .list(rpc.envelope.map { field in
                ["nameLiteral": .string(SwiftLiteral.string(field.name)), "jsonLiteral": .string(SwiftLiteral.string(field.json))]
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
        return "RetryPolicy(\(arguments.joined(separator: ", ")))"
    }

    static func rateLimitExpression(_ limit: RateLimitDescription) -> String {
        var arguments = ["calls: \(limit.calls)", "per: " + SwiftLiteral.duration(seconds: limit.perSeconds)]
        if let scope = limit.scope { arguments.append("scope: .\(scope.rawValue)") }
        if let behavior = limit.behavior { arguments.append("behavior: .\(behavior.rawValue)") }
        return "RateLimit(\(arguments.joined(separator: ", ")))"
    }

    /// `[ErrorResponse(status: 404, NotFound.self), ErrorResponse(default: Problem.self)]`, or
    /// nothing when none is declared.
    static func errorResponsesExpression(_ errors: [ErrorBodyDescription]) -> TemplateValue? {
        guard !errors.isEmpty else { return nil }
        let items = errors.map { error in
            error.status.map { "ErrorResponse(status: \($0), \(error.swiftType).self)" } ?? "ErrorResponse(default: \(error.swiftType).self)"
        }
        return .string("[" + items.joined(separator: ", ") + "]")
    }

    static func sampleExpression(_ sample: SampleDescription) -> String {
        var arguments = ["status: \(sample.status)"]
        if let json = sample.json { arguments.append("json: " + SwiftLiteral.string(json)) }
        if let delay = sample.delaySeconds { arguments.append("delay: " + SwiftLiteral.duration(seconds: delay)) }
        return "StubResponse(\(arguments.joined(separator: ", ")))"
    }

    /// `["a", "b"]`, or nothing for no strings (a section that renders nothing).
    static func stringArray(_ strings: [String]) -> TemplateValue? {
        strings.isEmpty ? nil : .string("[" + strings.map(SwiftLiteral.string).joined(separator: ", ") + "]")
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
    static func models(_ models: [ModelDescription]) -> TemplateValue {
        // Every type needs the runtime: a struct's coding keys are its `FieldKey`s, an enum is a
        // `ParameterValue`.
        let needsFoundation = models.contains { model in
            guard case .structure(let fields) = model.shape else { return false }
            return fields.contains { $0.type.needsFoundation }
        }
        let imports = models.isEmpty ? [] : ["APIRuntime"] + (needsFoundation ? ["Foundation"] : [])
        return [
            "imports": .strings(imports),
            "hasImports": .bool(!imports.isEmpty),
            "models": .list(models.map(model)),
        ]
    }

    static func model(_ model: ModelDescription) -> TemplateValue {
        var context: [String: TemplateValue] = [
            "swiftName": .string(model.swiftName),
            "docLines": .strings(model.docLines),
        ]
        switch model.shape {
        case .structure(let fields):
            context["fields"] = .list(fields.map { field in
                var values = member(field.swiftName, field.type, docLines: field.docLines)
                // What the written-out `init(from:)`, `encode(to:)` and `fieldsEqual` need: the key
                // on the wire, the `FieldReader`/`FieldWriter`/`FieldComparison` methods and the
                // type it reads, and for templates that call Codable's `decodeIfPresent`, the type
                // without its `?`.
                let keyLiteral = SwiftLiteral.string(field.jsonKey)
                values["keyLiteral"] = .string(keyLiteral)
                let method = field.type.fieldMethod
                values["fieldMethod"] = .string(method.name)
                values["comparisonMethod"] = .string(method.comparisonName)
                values["argumentLabel"] = .string(SwiftIdentifier.argumentLabel(field.swiftName))
                values["valueType"] = method.valueType.map { .string($0) }
                values["decodedType"] = .string(field.type.unwrappedSpelling)
                if field.jsonKey != field.swiftName.trimmingBackticks {
                    values["customKeyLiteral"] = .string(keyLiteral)
                }
                return .object(values)
            })
            // Model-level: `{{binding}}` inside the fields section finds it on the context stack.
            context["isMutable"] = .bool(model.isMutable)
            context["isErrorBody"] = .bool(model.isErrorBody)
            context["binding"] = .string(model.isMutable ? "var" : "let")
            context["hasCustomKeys"] = .bool(fields.contains { $0.jsonKey != $0.swiftName.trimmingBackticks })
            context["hasFields"] = .bool(!fields.isEmpty)
            context["inlineArguments"] = .bool(fields.count <= inlineArgumentLimit)
        case .enumeration(let cases):
            context["isEnum"] = true
            context["cases"] = .list(cases.map { enumCase in
                var values: [String: TemplateValue] = ["swiftName": .string(enumCase.swiftName)]
                if enumCase.rawValue != enumCase.swiftName.trimmingBackticks {
                    values["customRawValueLiteral"] = .string(SwiftLiteral.string(enumCase.rawValue))
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
        var values = member(parameter.swiftName, parameter.type, docLines: parameter.docLines)
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

    /// What the property and initializer templates read of a model's field or an API's parameter.
    private static func member(_ swiftName: String, _ type: SwiftType, docLines: [String]) -> [String: TemplateValue] {
        [
            "swiftName": .string(swiftName),
            "label": .string(argumentLabel(swiftName)),
            "type": .string(type.spelling),
            "isOptional": .bool(type.isOptional),
            "docLines": .strings(docLines),
        ]
    }

    /// The name as an argument label in a call: keywords need no backticks there, but for three.
    private static func argumentLabel(_ swiftName: String) -> String {
        let bare = swiftName.trimmingBackticks
        return ["inout", "var", "let"].contains(bare) ? swiftName : bare
    }

    private static func header(_ header: HeaderDescription) -> TemplateValue {
        ["nameLiteral": .string(SwiftLiteral.string(header.name)), "valueLiteral": .string(SwiftLiteral.string(header.value))]
    }
}

extension String {
    /// `` `default` `` → `default`: the name as the wire and `CodingKeys` see it.
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
