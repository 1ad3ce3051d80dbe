import APIManifest
import Foundation

/// APIs of every kind: class names, responses, and the policies common to all kinds.
extension DescriptionBuilder {
    mutating func describeAPIs() -> [APIDescription] {
        var firstDeclaration: [String: SourceLocation] = [:]
        var classNames = SwiftNames(kind: "API")
        var described: [APIDescription] = []
        for file in workspace.files {
            for api in file.apis where api.grpc?.service != nil {
                if let example = api.example {
                    diagnostics.error("'example:' is one method's request: give it to an API that names its method with 'rpc:', not to the service '\(api.grpc!.service!.value)'", at: example.location)
                }
            }
            for api in file.apis.flatMap({ expandingService($0, in: file) }) {
                if let first = firstDeclaration[api.name.value] {
                    diagnostics.error("API '\(api.name.value)' is declared twice; first declared at \(first)", at: api.name.location)
                    continue
                }
                firstDeclaration[api.name.value] = api.name.location
                let base = SwiftIdentifier.make(from: api.name.value, capitalized: true)
                let className = prefix + base + (base.hasSuffix("API") ? "" : "API")
                guard classNames.claim(className, for: api.name, into: &diagnostics) else { continue }
                if let description = describeAPI(api, className: className, file: file.file) { described.append(description) }
            }
        }
        return described
    }

    mutating func describeAPI(_ api: APIDeclaration, className: String, file: String) -> APIDescription? {
        let nameIsValid = checkTypeName(className, at: api.name.location)
        if let model = types.manifestNames[className] {
            diagnostics.error("API '\(api.name.value)' would generate class '\(className)', which type '\(model)' already names", at: api.name.location)
        }
        if let baseURL = api.baseURL { checkBaseURL(baseURL) }
        api.headers.forEach { checkHeader($0) }

        let declaredResponses = describeResponses(api.responses, allowsSuccess: true)
        // Inside the class, a stored property hides a type of the same name from its static
        // members: `definition` names the error bodies' types, `sample` the class.
        var typesNamed: [String: String] = [:]
        for error in declaredResponses.errors { typesNamed[error.swiftType] = "the API's definition names its error body's type so" }
        if api.sample != nil { typesNamed[className] = "the API's sample names its class so" }
        var declaredSuccess = api.response
        if let success = declaredResponses.success {
            if api.response != nil || api.responseStream != nil {
                diagnostics.error("the reply's type is declared twice: by 'response:' and by \(success.status.value.map(String.init) ?? "") under 'responses:'", at: success.status.location)
            }
            declaredSuccess = success.type
        }

        var response: ResponseDescription?
        if let stream = api.responseStream {
            if api.kind.value != .rest {
                diagnostics.error("'response: { \(stream.format.value.rawValue): … }' is for REST APIs; a \(api.kind.value.rawValue) reply is decoded from its protocol's envelope", at: stream.format.location)
            }
            response = types.resolve(stream.type, into: &diagnostics).map { type in
                switch stream.format.value {
                case .events:
                    let decoding: ResponseDescription.Decoding = stream.type.value == .named("String") ? .textEvents : .events
                    return ResponseDescription(type: SwiftType(spelling: "APIEventStreams.ServerEventStream<\(type.spelling)>", isOptional: false, needsFoundation: type.needsFoundation, expression: type.expression), decoding: decoding)
                case .jsonLines:
                    return ResponseDescription(type: SwiftType(spelling: "APIEventStreams.JSONLinesStream<\(type.spelling)>", isOptional: false, needsFoundation: type.needsFoundation, expression: type.expression), decoding: .jsonLines)
                }
            }
            if stream.type.value.isOptional {
                diagnostics.error("each streamed value is present: drop the '?'", at: stream.type.location)
            }
        } else if let declared = declaredSuccess, let body = ResponseDescription.bodyKeywords[declared.value] {
            if api.kind.value != .rest {
                diagnostics.error("'response: \(declared.value)' is for REST APIs; a \(api.kind.value.rawValue) reply is decoded from its protocol's envelope", at: declared.location)
            }
            response = body
        } else if let declared = declaredSuccess {
            response = types.resolve(declared, into: &diagnostics).map { type in
                ResponseDescription(type: type, decoding: declared.value == .named("String") ? .text : .json)
            }
        } else {
            response = ResponseDescription(type: SwiftType(spelling: "APIRuntime.NoContent", isOptional: false, needsFoundation: false), decoding: .noContent)
        }

        let shape: APIShape
        var parameters: [ParameterDescription] = []
        var baseURL = api.baseURL?.value
        var headers = self.headers(api.headers)
        var timeout = api.timeout?.value
        switch api.kind.value {
        case .grpc:
            guard let endpoint = api.grpc, let described = describeGRPC(api, endpoint, file: file) else { return nil }
            shape = .grpc(described.grpc)
            baseURL = described.baseURL
            headers = described.metadata
            timeout = timeout ?? described.deadline
            response = ResponseDescription(
                type: SwiftType(spelling: described.grpc.serverStreams ? "APIGRPC.GRPCResponseStream<\(described.grpc.responseType)>" : described.grpc.responseType, isOptional: false, needsFoundation: false),
                decoding: described.grpc.serverStreams ? .grpcStream : .protobuf
            )
        case .rest:
            guard let endpoint = api.rest else { return nil }
            if let listed = api.parametersAreListed, listed.value {
                diagnostics.error("REST parameters are a mapping of names to types, not a list", at: listed.location)
            }
            let described = describeREST(api, endpoint, reserving: typesNamed)
            shape = .rest(described.rest)
            parameters = described.parameters
            switch response?.decoding {
            case .download?:
                appendArgument(.downloadDestination, of: "a download", purpose: "the file to write", to: &parameters, declared: api.parameters)
            case .events?, .textEvents?:
                appendArgument(.lastEventID, of: "an event stream", purpose: "sent as Last-Event-ID", to: &parameters, declared: api.parameters)
            default:
                break
            }
        case .jsonrpc, .rpc:
            guard let endpoint = api.rpc else { return nil }
            let described = describeRPC(api, endpoint, reserving: typesNamed)
            shape = api.kind.value == .jsonrpc ? .jsonRPC(described.rpc) : .customRPC(described.rpc)
            parameters = described.parameters
            baseURL = described.absoluteURL ?? baseURL
        }
        // Sending a POST, a PATCH or an RPC call twice may repeat its effect: retrying one needs
        // the manifest to say the server makes it safe.
        let nonIdempotent: String? = switch shape {
        case .rest(let rest): [.POST, .PATCH].contains(rest.method) ? rest.method.rawValue : nil
        case .jsonRPC, .customRPC: "an RPC call"
        case .grpc(let grpc): grpc.isIdempotent ? nil : "a gRPC method its proto does not mark idempotent"
        }
        let retry = api.retry.flatMap { describeRetry($0, forNonIdempotent: nonIdempotent) }
        let rateLimit = api.rateLimit.flatMap { describeRateLimit($0) }
        api.significantHeaders?.forEach { checkHeaderName($0) }
        let sample = api.sample.flatMap { describeSample($0) }
        if !api.responses.isEmpty, api.kind.value != .rest {
            diagnostics.error("'responses:' is for REST APIs", at: api.responses[0].status.location)
        }
        guard nameIsValid, let response else { return nil }
        var description = APIDescription(
            manifestName: api.name.value, declaredAt: api.name.location, className: className, sourceFile: file,
            generatedPath: GeneratedPaths.api(className, manifest: workspace.relativePath(file)),
            docLines: SwiftLiteral.docLines(api.description?.value ?? protoComment(for: api, file: file).joined(separator: "\n")), shape: shape,
            parameters: parameters, response: response, headers: headers,
            timeoutSeconds: timeout, frequency: api.frequency?.value,
            retry: retry, rateLimit: rateLimit,
            significantHeaders: api.significantHeaders?.map(\.value), tags: api.tags.map(\.value),
            skippedInterceptors: api.skipInterceptors.map(\.value), sample: sample,
            baseURL: baseURL
        )
        description.authenticated = api.authenticated?.value
        warnIfTokenInClearText(api.authenticated, baseURL: baseURL ?? workspace.manifest.defaults.baseURL?.value)
        description.errorResponses = declaredResponses.errors
        description.safe = api.safe?.value ?? shape.grpc?.hasNoSideEffects ?? false
        description.cache = api.cache.flatMap { checkCache($0, of: api, description: description) }
        description.invalidates = api.invalidates.map(\.value)
        if !api.responseHeaders.isEmpty {
            if api.kind.value != .rest {
                diagnostics.error("'responseHeaders:' is for REST APIs", at: api.responseHeaders[0].name.location)
            }
            description.responseHeaders = describeResponseHeaders(api.responseHeaders)
        }
        if let errorData = api.errorData {
            // The data of an error object, whatever its code: a default error body.
            description.errorResponses += describeResponses([StatusResponseDeclaration(status: Located(nil, at: errorData.location), type: errorData)], allowsSuccess: false).errors
        }
        return description
    }

    /// Adds an argument the initializer takes for the kind of response (a download's destination),
    /// reporting a declared parameter that would have the same Swift name.
    mutating func appendArgument(
        _ argument: ParameterDescription, of what: String, purpose: String,
        to parameters: inout [ParameterDescription], declared: [ParameterDeclaration]
    ) {
        if let taken = declared.first(where: { SwiftIdentifier.make(from: $0.name.value, capitalized: false) == argument.swiftName }) {
            diagnostics.error("\(what)'s initializer takes '\(argument.swiftName):', \(purpose); rename parameter '\(taken.name.value)' ('name:' keeps its name on the wire)", at: taken.name.location)
        }
        parameters.append(argument)
    }
}
