import APIWireFormat
import APIManifest
import Foundation

/// REST APIs: the path template and where each parameter travels.
extension DescriptionBuilder {
    mutating func describeREST(_ api: APIDeclaration, _ endpoint: RESTEndpoint, reserving typesNamed: [String: String]) -> (rest: RESTDescription, parameters: [ParameterDescription]) {
        let method = endpoint.method.value
        var template: PathTemplate?
        do {
            template = try PathTemplate(validating: endpoint.path.value)
        } catch {
            diagnostics.error("invalid path '\(endpoint.path.value)': \(error.message)", at: columnShifted(endpoint.path, by: error.offset))
        }
        if endpoint.path.value.contains("://") {
            diagnostics.error("path '\(endpoint.path.value)' is a whole URL, but every call appends its path to the base URL; put the scheme and host in 'baseURL:' and the path here", at: endpoint.path.location)
        }
        let placeholders = Set(template?.placeholders.map(\.name) ?? [])
        let encoding = endpoint.encoding?.value ?? .json

        var swiftNames = SwiftNames.parameters(alsoReserving: typesNamed)
        var wireNames = WireNames()
        for header in api.headers {
            wireNames.claim(header.name, in: .header, for: "header '\(header.name.value)'", into: &diagnostics)
        }
        var parameters: [ParameterDescription] = []
        var hasBodyParameters = false
        var body = BodyShape.fields(encoding)
        // The whole body is the initializer's last argument: `ReplaceUserAPI(id: 7, body: user)`.
        var wholeBody: ParameterDescription?
        if let whole = endpoint.wholeBody, let described = describeWholeBody(whole, method: method) {
            body = described.shape
            let name = whole.name ?? Located("body", at: whole.location)
            swiftNames.claimParameter(described.parameter.swiftName, for: name, into: &diagnostics)
            wholeBody = described.parameter
        }
        for parameter in api.parameters {
            let swiftName = SwiftIdentifier.make(from: parameter.name.value, capitalized: false)
            swiftNames.claimParameter(swiftName, for: parameter.name, into: &diagnostics)
            // With a whole body, other parameters travel in the URL unless they say otherwise.
            let location = parameter.location?.value
                ?? (placeholders.contains(parameter.name.value) ? .path : method.hasBody && endpoint.wholeBody == nil ? .body : .query)
            if location == .body, endpoint.wholeBody != nil {
                diagnostics.error("parameter '\(parameter.name.value)' is 'in: body', but the body is one value ('body:' names its type); put the parameter in the path, query or a header", at: parameter.location?.location ?? parameter.name.location)
                continue
            }
            hasBodyParameters = hasBodyParameters || location == .body
            if location != .path {
                wireNames.claim(parameter.wireName ?? parameter.name, in: location, for: "parameter '\(parameter.name.value)'", into: &diagnostics)
            }
            checkParameterPlacement(parameter, location: location, placeholders: placeholders, encoding: encoding, method: method)
            let allowingFile = location == .body && encoding == .multipart
            guard let type = types.resolve(parameter.type, allowingFile: allowingFile, into: &diagnostics) else { continue }
            var described = ParameterDescription(
                swiftName: SwiftIdentifier.escaped(swiftName),
                wireName: parameter.wireName?.value ?? parameter.name.value,
                type: type, location: location,
                docLines: SwiftLiteral.docLines(parameter.description?.value),
                isJSONPart: allowingFile && !travelsAsPart(parameter.type.value)
            )
            describeValue(of: parameter, into: &described)
            parameters.append(described)
        }
        if let wholeBody { parameters.append(wholeBody) }
        let declared = Set(api.parameters.map(\.name.value))
        for placeholder in template?.placeholders ?? [] where !declared.contains(placeholder.name) {
            let hint = Suggestion.hint(for: placeholder.name, in: declared.sorted())
            diagnostics.error(
                "path parameter '{\(placeholder.name)}' is not declared under 'parameters:'\(hint)",
                at: columnShifted(endpoint.path, by: placeholder.offset)
            )
        }
        if endpoint.encoding != nil, !hasBodyParameters {
            diagnostics.warning("'body: \(encoding.rawValue)' has no effect: the API has no body parameters", at: endpoint.encoding!.location)
        }
        return (RESTDescription(method: method, path: endpoint.path.value, body: body), parameters)
    }

    /// `body: User` or `body: bytes`: the one argument that is the whole body.
    mutating func describeWholeBody(_ whole: WholeBodyDeclaration, method: HTTPMethodName) -> (shape: BodyShape, parameter: ParameterDescription)? {
        if !method.hasBody, method != .DELETE {
            diagnostics.error("a \(method.rawValue) request has no body: 'body:' needs POST, PUT, PATCH or DELETE", at: whole.location)
        }
        let swiftName = SwiftIdentifier.escaped(SwiftIdentifier.make(from: whole.name?.value ?? "body", capitalized: false))
        let docLines = SwiftLiteral.docLines(whole.description?.value)
        guard let declared = whole.type else {
            let contentType = whole.contentType?.value ?? "application/octet-stream"
            if let given = whole.contentType, !Self.isMediaType(given.value) {
                diagnostics.error("'\(given.value)' is not a content type such as 'image/png'", at: given.location)
            }
            let type = SwiftType(spelling: "APIRuntime.HTTPBody", isOptional: false, needsFoundation: false)
            return (.bytes(contentType: contentType), ParameterDescription(swiftName: swiftName, wireName: "", type: type, location: .body, docLines: docLines))
        }
        if let contentType = whole.contentType {
            diagnostics.error("'contentType:' is for 'type: bytes'; a body of type '\(declared.value)' is sent as JSON", at: contentType.location)
        }
        guard let type = types.resolve(declared, into: &diagnostics) else { return nil }
        if type.isOptional {
            diagnostics.error("the body cannot be optional: drop the '?', or declare its fields as parameters", at: declared.location)
        }
        return (.value, ParameterDescription(swiftName: swiftName, wireName: "", type: type, location: .body, docLines: docLines))
    }

    /// Whether a multipart parameter is sent as text, bytes or files (else as JSON).
    func travelsAsPart(_ type: TypeExpression) -> Bool {
        if types.isTextual(type, allowArrays: true) { return true }
        switch type.unwrapped {
        case .named("File"): return true
        case .array(let element): return element == .named("File")
        default: return false
        }
    }

    /// `type/subtype`, each part a token, parameters after `;` allowed.
    static func isMediaType(_ text: String) -> Bool {
        let essence = text.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let parts = essence.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        let token = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~").union(.alphanumerics)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { $0.isASCII && token.contains($0) } }
    }

    mutating func checkParameterPlacement(
        _ parameter: ParameterDeclaration, location: ParameterLocation,
        placeholders: Set<String>, encoding: BodyEncoding, method: HTTPMethodName
    ) {
        let name = parameter.name.value
        let type = parameter.type.value
        let at = parameter.location?.location ?? parameter.name.location
        switch location {
        case .path:
            if !placeholders.contains(name) {
                diagnostics.error("parameter '\(name)' is 'in: path' but the path has no '{\(name)}'", at: at)
            }
            if type.isOptional {
                diagnostics.error("path parameter '\(name)' cannot be optional: the path needs a value", at: parameter.type.location)
            } else if !types.isTextual(type, allowArrays: false) {
                diagnostics.error("path parameter '\(name)' must be a scalar or an enum, found '\(type)'", at: parameter.type.location)
            }
        case .query, .header:
            if location == .header {
                checkHeaderName(parameter.wireName ?? parameter.name)
                checkNotFraming(parameter.wireName ?? parameter.name)
            }
            if placeholders.contains(name) {
                diagnostics.error("parameter '\(name)' is 'in: \(location.rawValue)' but the path names '{\(name)}'", at: at)
            }
            if !types.isTextual(type, allowArrays: location == .query) {
                let allowed = location == .query ? "a scalar, an enum or a list of those" : "a scalar or an enum"
                diagnostics.error("\(location.rawValue) parameter '\(name)' must be \(allowed), found '\(type)'", at: parameter.type.location)
            }
        case .body:
            if placeholders.contains(name) {
                diagnostics.error("parameter '\(name)' is 'in: body' but the path names '{\(name)}'", at: at)
            }
            // A `File` is reported where its type is resolved.
            if encoding == .form, !types.isTextual(type, allowArrays: true), !type.names.contains("File") {
                diagnostics.error("form field '\(name)' must be a scalar, an enum or a list of those, found '\(type)'; use 'body: json' for models", at: parameter.type.location)
            }
            if method == .GET || method == .HEAD {
                diagnostics.error("parameter '\(name)' is 'in: body', but a \(method.rawValue) request has no body; put it in the query", at: at)
            }
        }
    }
}
