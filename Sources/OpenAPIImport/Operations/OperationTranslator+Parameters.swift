import Foundation
import OpenAPIKit

/// Path, query and header parameters.
extension OperationTranslator {
    mutating func translateParameters(
        of operation: OpenAPIKit.OpenAPI.Operation, pathItem: OpenAPIKit.OpenAPI.PathItem, into api: inout ImportedAPI, names: inout NameBook, at pointer: JSONPointer
    ) {
        // The operation's parameters replace the path item's of the same name and location.
        var resolved: [(OpenAPIKit.OpenAPI.Parameter, JSONPointer, definedAt: JSONPointer)] = []
        let sources = [(pathItem.parameters, JSONPointer(Array(pointer.tokens.dropLast())).appending("parameters")), (operation.parameters, pointer.appending("parameters"))]
        for (parameters, base) in sources {
            for (index, either) in parameters.enumerated() {
                guard let parameter = components[either] else {
                    schemas.report.warning("the parameter's reference is not found; it is left out", at: base.appending(index))
                    continue
                }
                resolved.removeAll { $0.0.name == parameter.name && $0.0.location == parameter.location }
                // Where the parameter is written: in `components` when the operation refers to it.
                var definedAt = base.appending(index)
                if case .a(let reference) = either, let name = reference.name { definedAt = JSONPointer(["components", "parameters", name]) }
                resolved.append((parameter, base.appending(index), definedAt))
            }
        }
        // Path parameters first, so that they keep their names.
        let ordered = resolved.filter { $0.0.location == .path } + resolved.filter { $0.0.location != .path }
        for (parameter, parameterPointer, definedAt) in ordered {
            if parameter.location == .path, !api.path.contains("{\(parameter.name)}") {
                schemas.report.warning("path parameter '\(parameter.name)' is not in the path '\(api.path)'; it is left out", at: parameterPointer)
                continue
            }
            guard let imported = translate(parameter, api: api.name, names: &names, at: parameterPointer, definedAt: definedAt) else { continue }
            if parameter.location == .path, imported.name != parameter.name {
                api.path = api.path.replacingOccurrences(of: "{\(parameter.name)}", with: "{\(imported.name)}")
            }
            api.parameters.append(imported)
        }
    }

    /// The parameter as a manifest says it; `pointer` is where the operation lists it, for
    /// messages, and `definedAt` where it is written (the same, or its entry in `components`).
    mutating func translate(
        _ parameter: OpenAPIKit.OpenAPI.Parameter, api: String, names: inout NameBook, at pointer: JSONPointer, definedAt: JSONPointer
    ) -> ImportedParameter? {
        let location: String
        switch parameter.context {
        case .path: location = "path"
        case .query: location = "query"
        case .header:
            // OpenAPI ignores these three as parameters: the media types and security say them.
            if ["accept", "content-type", "authorization"].contains(parameter.name.lowercased()) { return nil }
            location = "header"
        case .cookie:
            schemas.report.warning("cookie parameters are not supported; '\(parameter.name)' is left out (send it in a 'Cookie' header from an interceptor)", at: pointer)
            return nil
        case .querystring:
            schemas.report.warning("a 'querystring' parameter has no equivalent in a manifest; '\(parameter.name)' is left out", at: pointer)
            return nil
        }
        var translated: TypeTranslator.Translated
        let schemaContext: OpenAPIKit.OpenAPI.Parameter.SchemaContext?
        var schema: JSONSchema?
        switch parameter.schemaOrContent {
        case .a(let context):
            schemaContext = context
            let described: JSONSchema = switch context.schema {
            case .a(let reference):
                // A default beside the reference is the parameter's (FastAPI's `level: Priority = 3`).
                schemas.report.sourceMap.defaultBesideReference(at: definedAt.appending("schema")).map {
                    JSONSchema.reference(reference.jsonReference).with(defaultValue: $0)
                } ?? .reference(reference.jsonReference)
            case .b(let schema): schema
            }
            schema = described
            translated = schemas.type(of: described, at: pointer.appending("schema"), hint: api + Naming.typeName(parameter.name))
        case .b:
            // A value encoded as a media type (JSON in the query, say): the path still needs it.
            guard location == "path" else {
                schemas.report.warning("parameter '\(parameter.name)' is described by 'content', which a manifest cannot say; it is left out", at: pointer.appending("content"))
                return nil
            }
            schemaContext = nil
            translated = TypeTranslator.Translated(spelling: "JSON")
        }
        if location == "path", !isTextual(translated.spelling, allowingLists: false) {
            // The path needs its value, and any value travels there as text.
            schemas.report.warning("path parameter '\(parameter.name)' is \(translated.spelling), but a path parameter is a scalar or an enum; it is imported as String", at: pointer.appending("schema"))
            translated = TypeTranslator.Translated(spelling: "String")
        }
        guard isTextual(translated.spelling, allowingLists: location == "query") else {
            let allowed = location == "query" ? "a scalar, an enum or a list of those" : "a scalar or an enum"
            schemas.report.warning("\(location) parameter '\(parameter.name)' is \(translated.spelling), but a \(location) parameter is \(allowed); it is left out", at: pointer.appending("schema"))
            return nil
        }
        if let schemaContext, location == "query", translated.spelling.hasPrefix("["), !schemaContext.explode {
            schemas.report.warning("query parameter '\(parameter.name)' says 'explode: false' (one comma-separated item); it is sent as one item per value", at: pointer)
        }
        if let style = schemaContext?.style, style == .deepObject || style == .spaceDelimited || style == .pipeDelimited {
            schemas.report.warning("query parameter '\(parameter.name)' has style '\(style.rawValue)'; it is sent as one item per value", at: pointer)
        }
        var optional = location != "path" && (!parameter.required || translated.isNullable)
        // A default the server applies when the parameter is left out (FastAPI's `limit: int = 10`)
        // becomes the initializer argument's default, so the call sends it.
        let defaultValue = optional ? schema.flatMap { schemas.defaultValue(of: $0, type: translated.spelling) } : nil
        if defaultValue != nil { optional = false }
        let name = names.claim(Naming.memberName(parameter.name))
        return ImportedParameter(
            name: name,
            wireName: name == parameter.name || location == "path" ? nil : parameter.name,
            location: location,
            type: translated.spelling + (optional ? "?" : ""),
            description: parameter.description?.trimmingCharacters(in: .whitespacesAndNewlines),
            defaultValue: defaultValue,
            example: schemaContext.flatMap(example(of:))
        )
    }

    func isTextual(_ spelling: String, allowingLists: Bool) -> Bool {
        if allowingLists, spelling.hasPrefix("["), spelling.hasSuffix("]"), !spelling.contains(":") {
            return isTextual(String(spelling.dropFirst().dropLast()), allowingLists: false)
        }
        return Self.textualScalars.contains(spelling) || schemas.isEnumeration(spelling)
    }
}
