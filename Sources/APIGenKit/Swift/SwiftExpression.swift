import APIManifest

/// The Swift expressions and statements generated code is made of, built from a description's
/// values. Templates only place them; every one is built here.
enum SwiftExpression {
    /// The modifier generated declarations start with: `public `, `package `, or nothing for
    /// internal, which hand-written code leaves unsaid.
    static func accessModifier(_ access: AccessLevel) -> String {
        access == .internal ? "" : access.rawValue + " "
    }

    /// `["a", "b"]`, `[]` for none.
    static func arrayLiteral(_ strings: [String]) -> String {
        "[" + strings.map(SwiftLiteral.string).joined(separator: ", ") + "]"
    }

    /// `APIRuntime.RetryPolicy(maxAttempts: 3, ...)`, or `.none`.
    static func retry(_ retry: RetryDescription) -> String {
        if retry.isNone { return ".none" }
        var arguments = ["maxAttempts: \(retry.attempts ?? RetryPolicySettings.defaultAttempts)"]
        if let delay = retry.delaySeconds { arguments.append("baseDelay: " + SwiftLiteral.duration(seconds: delay)) }
        if let maxDelay = retry.maxDelaySeconds { arguments.append("maxDelay: " + SwiftLiteral.duration(seconds: maxDelay)) }
        if let statuses = retry.statuses { arguments.append("retryableStatuses: [\(statuses.map(String.init).joined(separator: ", "))]") }
        if retry.nonIdempotent { arguments.append("retriesNonIdempotent: true") }
        return "APIRuntime.RetryPolicy(\(arguments.joined(separator: ", ")))"
    }

    /// `APIRuntime.RateLimit(calls: 10, per: .seconds(1), ...)`.
    static func rateLimit(_ limit: RateLimitDescription) -> String {
        var arguments = ["calls: \(limit.calls)", "per: " + SwiftLiteral.duration(seconds: limit.perSeconds)]
        if let scope = limit.scope { arguments.append("scope: .\(scope.rawValue)") }
        if let behavior = limit.behavior { arguments.append("behavior: .\(behavior.rawValue)") }
        return "APIRuntime.RateLimit(\(arguments.joined(separator: ", ")))"
    }

    /// `APIRuntime.CacheSettings(ttl: 60, staleIfError: 86400)`, or `.http` for the server's headers.
    static func cache(_ cache: CacheDescription) -> String {
        var arguments: [String] = []
        if let ttl = cache.ttl { arguments.append("ttl: \(ttl)") }
        if let seconds = cache.staleWhileRevalidate { arguments.append("staleWhileRevalidate: \(seconds)") }
        if let seconds = cache.staleIfError { arguments.append("staleIfError: \(seconds)") }
        if let revalidate = cache.revalidate, !revalidate { arguments.append("revalidate: false") }
        if let scope = cache.scope, scope != .credential { arguments.append("scope: .\(scope.rawValue)") }
        return arguments.isEmpty ? ".http" : "APIRuntime.CacheSettings(\(arguments.joined(separator: ", ")))"
    }

    /// `[APIRuntime.ErrorResponse(status: 404, NotFound.self), ...(default: Problem.self)]`, or
    /// nil when none is declared.
    static func errorResponses(_ errors: [ErrorBodyDescription]) -> String? {
        guard !errors.isEmpty else { return nil }
        let items = errors.map { error in
            error.status.map { "APIRuntime.ErrorResponse(status: \($0), \(error.swiftType).self)" }
                ?? "APIRuntime.ErrorResponse(default: \(error.swiftType).self)"
        }
        return "[" + items.joined(separator: ", ") + "]"
    }

    /// `APIRuntime.StubResponse(status: 200, json: "...", delay: ...)`.
    static func sample(_ sample: SampleDescription) -> String {
        var arguments = ["status: \(sample.status)"]
        if let json = sample.json { arguments.append("json: " + SwiftLiteral.string(json)) }
        if let delay = sample.delaySeconds { arguments.append("delay: " + SwiftLiteral.duration(seconds: delay)) }
        return "APIRuntime.StubResponse(\(arguments.joined(separator: ", ")))"
    }

    /// How a written-out `init(from:)` reads a field from `container`.
    static func decode(_ field: FieldDescription) -> String {
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
    static func encode(_ field: FieldDescription) -> String {
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

    /// The type a gRPC API's initializer takes: the request message, or a stream of them.
    static func grpcParameters(_ grpc: GRPCDescription) -> String {
        grpc.clientStreams ? "APIGRPC.GRPCRequestStream<\(grpc.requestType)>" : grpc.requestType
    }

    /// The `APIRuntime.RPCDelegate` a custom RPC API makes for its calls.
    static func delegate(_ rpc: RPCDescription) -> String {
        rpc.delegateType + "()"
    }

    /// The `RequestBuilder` method that puts a parameter where it travels.
    static func builderMethod(_ parameter: ParameterDescription, _ api: APIDescription) -> String {
        if let rpc = api.shape.rpc { return rpc.structure == .byPosition ? "positional" : "body" }
        switch parameter.location {
        case .path: return "path"
        case .query: return "query"
        case .header: return "header"
        case .body:
            switch api.shape.rest?.body {
            case .value: return "jsonBody"
            case .bytes: return "bytes"
            case .fields(.form): return "form"
            case .fields(.multipart): return parameter.isJSONPart ? "jsonPart" : "part"
            case .fields(.json), nil: return "body"
            }
        }
    }
}
