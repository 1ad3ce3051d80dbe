import APIManifest
import Foundation

/// REST APIs: the path template and where each parameter travels.
extension DescriptionBuilder {
    mutating func describeREST(_ api: APIDeclaration, _ endpoint: RESTEndpoint) -> (rest: RESTDescription?, parameters: [ParameterDescription]) {
        let method = endpoint.method.value
        var template: PathTemplate?
        do {
            template = try PathTemplate(endpoint.path.value)
        } catch {
            diagnostics.error("invalid path '\(endpoint.path.value)': \(error.message)", at: columnShifted(endpoint.path, by: error.offset))
        }
        let placeholders = Set(template?.placeholders.map(\.name) ?? [])
        let encoding = endpoint.encoding?.value ?? .json

        var swiftNames = SwiftNames(kind: "parameter")
        var parameters: [ParameterDescription] = []
        for parameter in api.parameters {
            let swiftName = SwiftIdentifier.make(from: parameter.name.value, capitalized: false)
            swiftNames.claim(swiftName, for: parameter.name, into: &diagnostics)
            let location = parameter.location?.value
                ?? (placeholders.contains(parameter.name.value) ? .path : method.hasBody ? .body : .query)
            checkParameterPlacement(parameter, location: location, placeholders: placeholders, encoding: encoding, method: method)
            guard let type = types.resolve(parameter.type, into: &diagnostics) else { continue }
            parameters.append(ParameterDescription(
                swiftName: SwiftIdentifier.escaped(swiftName),
                wireName: parameter.wireName?.value ?? parameter.name.value,
                type: type, location: location,
                docLines: SwiftLiteral.docLines(parameter.description?.value)
            ))
        }
        let declared = Set(api.parameters.map(\.name.value))
        for placeholder in template?.placeholders ?? [] where !declared.contains(placeholder.name) {
            let hint = Suggestion.hint(for: placeholder.name, in: declared.sorted())
            diagnostics.error(
                "path parameter '{\(placeholder.name)}' is not declared under 'parameters:'\(hint)",
                at: columnShifted(endpoint.path, by: placeholder.offset)
            )
        }
        if endpoint.encoding != nil, !parameters.contains(where: { $0.location == .body }) {
            diagnostics.warning("'body: \(encoding.rawValue)' has no effect: the API has no body parameters", at: endpoint.encoding!.location)
        }
        return (RESTDescription(method: method, path: endpoint.path.value, bodyEncoding: encoding), parameters)
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
            if location == .header { checkHeaderName(parameter.wireName ?? parameter.name) }
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
            if encoding == .form, !types.isTextual(type, allowArrays: true) {
                diagnostics.error("form field '\(name)' must be a scalar, an enum or a list of those, found '\(type)'; use 'body: json' for models", at: parameter.type.location)
            }
            if method == .GET || method == .HEAD {
                diagnostics.warning("\(method.rawValue) request with a body parameter '\(name)': many servers and proxies drop such bodies", at: at)
            }
        }
    }
}
