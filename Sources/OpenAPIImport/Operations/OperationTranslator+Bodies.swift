import Foundation
import OpenAPIKit

/// Request bodies: a whole JSON value, a form's members, or bytes.
extension OperationTranslator {
    mutating func translateBody(
        _ either: Either<OpenAPIKit.OpenAPI.Reference<OpenAPIKit.OpenAPI.Request>, OpenAPIKit.OpenAPI.Request>,
        into api: inout ImportedAPI, names: inout NameBook, at pointer: JSONPointer
    ) {
        guard let request = components[either] else {
            schemas.report.warning("the request body's reference is not found; it is left out", at: pointer)
            return
        }
        guard let (mediaType, content) = MediaTypes.preferred(in: request.content, components: components) else { return }
        guard api.method != "GET", api.method != "HEAD" else {
            // Some documents give every operation a body, empty on reads: that one says nothing.
            if !schemas.properties(ofBody: content.schema, at: pointer).isEmpty {
                schemas.report.warning("a \(api.method) request has no body in a manifest; the request body is left out", at: pointer)
            }
            return
        }
        let contentPointer = pointer.appending("content", mediaType)
        let description = request.description?.trimmingCharacters(in: .whitespacesAndNewlines)
        // The whole-body argument is `body`, unless a parameter has that name; nil is the default.
        func argumentName() -> String? {
            let name = names.claim("body")
            return name == "body" ? nil : name
        }
        switch MediaTypes.kind(of: mediaType) {
        case .json:
            guard let schema = content.schema else {
                api.body = .bytes(contentType: mediaType, name: argumentName(), description: description)
                return
            }
            let translated = schemas.type(of: schema, at: contentPointer.appending("schema"), hint: api.name + "Request")
            api.body = .value(type: translated.spelling, name: argumentName(), description: description)
        case .form, .multipart:
            let multipart = MediaTypes.kind(of: mediaType) == .multipart
            let before = api.parameters.count
            defer {
                // A form with no member the manifest can send is no body at all.
                if api.parameters.count > before { api.body = .fields(encoding: multipart ? "multipart" : "form") }
            }
            for property in schemas.properties(ofBody: content.schema, at: contentPointer.appending("schema")) {
                let translated: TypeTranslator.Translated
                if multipart, let file = Self.fileSpelling(of: property.schema, components: components) {
                    translated = TypeTranslator.Translated(spelling: file)
                } else {
                    translated = schemas.type(of: property.schema, at: property.pointer, hint: api.name + Naming.typeName(property.key))
                }
                if !multipart, !isTextual(translated.spelling, allowingLists: true) {
                    schemas.report.warning("form field '\(property.key)' is \(translated.spelling), but a form field is a scalar, an enum or a list of those; it is left out", at: property.pointer)
                    continue
                }
                let name = names.claim(Naming.memberName(property.key))
                let optional = !property.required || translated.isNullable
                api.parameters.append(ImportedParameter(
                    name: name, wireName: name == property.key ? nil : property.key,
                    location: "body",
                    type: translated.spelling + (optional ? "?" : ""),
                    description: TypeTranslator.description(of: property.schema)
                ))
            }
        case .bytes:
            api.body = .bytes(contentType: mediaType.contains("*") ? "application/octet-stream" : mediaType, name: argumentName(), description: description)
        case .eventStream, .jsonLines:
            api.body = .bytes(contentType: mediaType, name: argumentName(), description: description)
        }
    }

    /// `File` for a binary string, `[File]` for a list of them: a multipart form's files.
    static func fileSpelling(of schema: JSONSchema, components: OpenAPIKit.OpenAPI.Components) -> String? {
        let resolved = components[schema] ?? schema
        switch resolved.value {
        case .string(let core, let string) where core.format.rawValue == "binary" || string.contentMediaType != nil && string.contentEncoding == nil:
            return "File"
        case .array(_, let array):
            return array.items.flatMap { fileSpelling(of: $0, components: components) == "File" ? "[File]" : nil }
        default:
            return nil
        }
    }
}
