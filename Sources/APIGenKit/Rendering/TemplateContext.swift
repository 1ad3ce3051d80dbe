import APIManifest

/// Lays a description out as the values templates read. Every name, type and literal is final
/// here; templates only place them.
enum TemplateContext {
    /// Up to this many arguments, an initializer fits on one line.
    static let inlineArgumentLimit = 3

    static func workspace(_ workspace: WorkspaceDescription, workspaceFile: String) -> [String: Any] {
        let defaults = workspace.defaults
        var context: [String: Any] = [
            "module": workspace.module,
            "workspaceFile": workspaceFile,
            "hasHeaders": !defaults.headers.isEmpty,
            "headers": defaults.headers.map(header),
        ]
        context["frequency"] = defaults.frequency?.rawValue
        context["retry"] = defaults.retry.map(retryExpression)
        context["rateLimit"] = defaults.rateLimit.map(rateLimitExpression)
        context["baseURLLiteral"] = defaults.baseURL.map(SwiftLiteral.string)
        context["timeout"] = defaults.timeoutSeconds.map(SwiftLiteral.duration(seconds:))
        context["maxConnectionsPerHost"] = defaults.maxConnectionsPerHost.map(String.init)
        return context
    }

    static func api(_ api: APIDescription) -> [String: Any] {
        let needsFoundation = api.parameters.contains { $0.type.needsFoundation } || api.response.type.needsFoundation
        var context: [String: Any] = [
            "imports": needsFoundation ? ["APIRuntime", "Foundation"] : ["APIRuntime"],
            "docLines": api.docLines,
            "hasDocLines": !api.docLines.isEmpty,
            "className": api.className,
            "responseType": api.response.type.spelling,
            "decoding": api.response.decoding.rawValue,
            "nameLiteral": SwiftLiteral.string(api.manifestName),
            "parameters": api.parameters.map { parameter($0, builder: builderMethod($0, api)) },
            "hasParameters": !api.parameters.isEmpty,
            "inlineArguments": api.parameters.count <= inlineArgumentLimit,
            "hasHeaders": !api.headers.isEmpty,
            "headers": api.headers.map(header),
        ]
        context["baseURLLiteral"] = api.baseURL.map(SwiftLiteral.string)
        context["timeout"] = api.timeoutSeconds.map(SwiftLiteral.duration(seconds:))
        context["frequency"] = api.frequency?.rawValue
        context["retry"] = api.retry.map(retryExpression)
        context["rateLimit"] = api.rateLimit.map(rateLimitExpression)
        context["significantHeaders"] = api.significantHeaders.isEmpty ? nil : stringArray(api.significantHeaders)
        context["tags"] = api.tags.isEmpty ? nil : stringArray(api.tags)
        context["skippedInterceptors"] = api.skippedInterceptors.isEmpty ? nil : stringArray(api.skippedInterceptors)
        context["sample"] = api.sample.map(sampleExpression)
        if let rest = api.rest {
            context["method"] = rest.method.rawValue
            context["methodCase"] = rest.method.rawValue.lowercased()
            context["path"] = SwiftLiteral.docLines(rest.path).joined()
            context["pathLiteral"] = SwiftLiteral.string(rest.path)
        }
        if let grpc = api.grpc {
            context["shape"] = grpc.shape
            context["rpcMethod"] = SwiftLiteral.docLines(grpc.method).joined()
            context["rpcMethodLiteral"] = SwiftLiteral.string(grpc.method)
            context["pathLiteral"] = SwiftLiteral.string("/" + grpc.method)
            context["requestType"] = grpc.requestType
            context["parametersType"] = grpc.clientStreams ? "GRPCRequestStream<\(grpc.requestType)>" : grpc.requestType
            context["clientStreams"] = grpc.clientStreams
            context["serverStreams"] = grpc.serverStreams
            context["isIdempotent"] = grpc.isIdempotent
        }
        if let rpc = api.rpc {
            context["protocolName"] = api.kind == .jsonrpc ? "JSON-RPC" : rpc.delegateType
            context["delegateType"] = rpc.delegateType
            context["rpcMethod"] = SwiftLiteral.docLines(rpc.method).joined()
            context["rpcMethodLiteral"] = SwiftLiteral.string(rpc.method)
            context["isNotification"] = rpc.isNotification
            context["path"] = rpc.path.isEmpty ? nil : SwiftLiteral.docLines(rpc.path).joined()
            context["pathLiteral"] = SwiftLiteral.string(rpc.path)
            context["hasEnvelope"] = !rpc.envelope.isEmpty
            context["envelope"] = rpc.envelope.map { field -> [String: Any] in
                ["nameLiteral": SwiftLiteral.string(field.name), "jsonLiteral": SwiftLiteral.string(field.json)]
            }
        }
        return context
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

    static func sampleExpression(_ sample: SampleDescription) -> String {
        var arguments = ["status: \(sample.status)"]
        if let json = sample.json { arguments.append("json: " + SwiftLiteral.string(json)) }
        if let delay = sample.delaySeconds { arguments.append("delay: " + SwiftLiteral.duration(seconds: delay)) }
        return "StubResponse(\(arguments.joined(separator: ", ")))"
    }

    static func stringArray(_ strings: [String]) -> String {
        "[" + strings.map(SwiftLiteral.string).joined(separator: ", ") + "]"
    }

    /// The `RequestBuilder` method that puts a parameter where it travels.
    private static func builderMethod(_ parameter: ParameterDescription, _ api: APIDescription) -> String {
        if let rpc = api.rpc { return rpc.structure == .byPosition ? "positional" : "body" }
        switch parameter.location {
        case .path: return "path"
        case .query: return "query"
        case .header: return "header"
        case .body: return api.rest?.bodyEncoding == .form ? "form" : "body"
        }
    }

    /// A manifest's types, for `models.mustache`: the imports they need between them, and each
    /// one's context for the `model` or `enum` partial.
    static func models(_ models: [ModelDescription]) -> [String: Any] {
        var needsRuntime = false
        var needsFoundation = false
        for model in models {
            switch model.shape {
            case .structure(let fields):
                needsRuntime = needsRuntime || fields.contains { $0.type.needsRuntime }
                needsFoundation = needsFoundation || fields.contains { $0.type.needsFoundation }
            case .enumeration:
                needsRuntime = true // ParameterValue
            }
        }
        let imports = (needsRuntime ? ["APIRuntime"] : []) + (needsFoundation ? ["Foundation"] : [])
        return [
            "imports": imports,
            "hasImports": !imports.isEmpty,
            "models": models.map(model),
        ]
    }

    static func model(_ model: ModelDescription) -> [String: Any] {
        var context: [String: Any] = [
            "swiftName": model.swiftName,
            "docLines": model.docLines,
        ]
        switch model.shape {
        case .structure(let fields):
            context["fields"] = fields.map { field -> [String: Any] in
                var values: [String: Any] = [
                    "swiftName": field.swiftName,
                    "label": argumentLabel(field.swiftName),
                    "type": field.type.spelling,
                    "isOptional": field.type.isOptional,
                    "docLines": field.docLines,
                ]
                if field.jsonKey != field.swiftName.trimmingBackticks {
                    values["customKeyLiteral"] = SwiftLiteral.string(field.jsonKey)
                }
                return values
            }
            context["hasCustomKeys"] = fields.contains { $0.jsonKey != $0.swiftName.trimmingBackticks }
            context["inlineArguments"] = fields.count <= inlineArgumentLimit
        case .enumeration(let cases):
            context["isEnum"] = true
            context["cases"] = cases.map { enumCase -> [String: Any] in
                var values: [String: Any] = ["swiftName": enumCase.swiftName]
                if enumCase.rawValue != enumCase.swiftName.trimmingBackticks {
                    values["customRawValueLiteral"] = SwiftLiteral.string(enumCase.rawValue)
                }
                return values
            }
        }
        return context
    }

    private static func parameter(_ parameter: ParameterDescription, builder: String) -> [String: Any] {
        var values: [String: Any] = [
            "swiftName": parameter.swiftName,
            "label": argumentLabel(parameter.swiftName),
            "type": parameter.type.spelling,
            "isOptional": parameter.type.isOptional,
            "docLines": parameter.docLines,
            "builderMethod": builder,
        ]
        // By-position parameters have no name on the wire.
        if builder != "positional" { values["wireNameLiteral"] = SwiftLiteral.string(parameter.wireName) }
        return values
    }

    /// The name as an argument label in a call: keywords need no backticks there, but for three.
    private static func argumentLabel(_ swiftName: String) -> String {
        let bare = swiftName.trimmingBackticks
        return ["inout", "var", "let"].contains(bare) ? swiftName : bare
    }

    private static func header(_ header: HeaderDescription) -> [String: Any] {
        ["nameLiteral": SwiftLiteral.string(header.name), "valueLiteral": SwiftLiteral.string(header.value)]
    }
}

extension String {
    /// `` `default` `` → `default`: the name as the wire and `CodingKeys` see it.
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
