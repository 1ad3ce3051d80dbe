import Foundation
import OpenAPIKit

/// Replies: the success's body and headers, and the error statuses' bodies.
extension OperationTranslator {
    mutating func translateResponses(_ responses: OpenAPIKit.OpenAPI.Response.Map, into api: inout ImportedAPI, at pointer: JSONPointer) {
        var successes: [(status: String, response: OpenAPIKit.OpenAPI.Response)] = []
        var errors: [(status: String, response: OpenAPIKit.OpenAPI.Response)] = []
        var fallback: OpenAPIKit.OpenAPI.Response?
        for (status, either) in responses {
            guard let response = components[either] else {
                schemas.report.warning("the response's reference is not found; it is left out", at: pointer.appending(status.rawValue))
                continue
            }
            switch status.value {
            case .status(let code) where (200..<300).contains(code):
                successes.append((status.rawValue, response))
            case .range(.success):
                successes.append((status.rawValue, response))
            case .status(let code) where code >= 400:
                errors.append((status.rawValue, response))
            case .default:
                fallback = response
            case .range(let range) where range == .clientError || range == .serverError:
                schemas.report.warning("a range of statuses (\(status.rawValue)) has no equivalent in a manifest; its body is not declared", at: pointer.appending(status.rawValue))
            default:
                break
            }
        }
        if successes.isEmpty, let fallback {
            successes.append(("default", fallback))
        } else if let fallback {
            errors.append(("default", fallback))
        }

        // The first success with a body is the API's reply; another body is a warning.
        var chosen: (status: String, response: OpenAPIKit.OpenAPI.Response, body: ImportedResponse)?
        for (status, response) in successes.sorted(by: { $0.status < $1.status }) {
            let statusPointer = pointer.appending(status)
            let body = status == "204" || status == "205" ? ImportedResponse.none : translate(response, api: api.name, at: statusPointer)
            if chosen == nil || chosen?.body == ImportedResponse.none && body != .none {
                chosen = (status, response, body)
            } else if let chosen, body != .none, body != chosen.body {
                schemas.report.warning("status \(status) has a different body from status \(chosen.status); the API decodes every success as the first", at: statusPointer)
            }
        }
        api.response = chosen?.body ?? .none
        if let chosen {
            api.responseHeaders = responseHeaders(chosen.response, api: api.name, at: pointer.appending(chosen.status, "headers"))
            if case .type = chosen.body, let json = example(of: chosen.response) {
                api.sample = (Int(chosen.status) ?? 200, json)
            }
        }

        for (status, response) in errors {
            let statusPointer = pointer.appending(status)
            guard case .type(let spelling) = translate(response, api: api.name + (status == "default" ? "Error" : "Error" + status), at: statusPointer) else { continue }
            guard schemas.isModel(spelling) else {
                schemas.report.warning("the body of status \(status) is \(spelling), but an error body is an object; it is not declared", at: statusPointer)
                continue
            }
            api.errorResponses.append((status, spelling))
        }
    }

    /// The JSON example of a reply's JSON body: its `example`, else the first of its `examples`
    /// with a value in the document (an external one is not fetched).
    func example(of response: OpenAPIKit.OpenAPI.Response) -> String? {
        guard let (mediaType, content) = MediaTypes.preferred(in: response.content, components: components),
              MediaTypes.kind(of: mediaType) == .json else { return nil }
        return json(of: content.example ?? content.examples?.values.lazy.compactMap { components[$0]?.dataOrLegacyValue }.first)
    }

    /// A parameter's example: its `example`, else the first of its `examples` with a value in the
    /// document.
    func example(of context: OpenAPIKit.OpenAPI.Parameter.SchemaContext) -> String? {
        json(of: context.example ?? context.examples?.values.lazy.compactMap { components[$0]?.dataOrLegacyValue }.first)
    }

    private func json(of value: AnyCodable?) -> String? {
        guard let value else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A reply's body as a manifest's response: JSON to its type, text to a String, event streams
    /// and JSON Lines to their element, anything else to bytes.
    mutating func translate(_ response: OpenAPIKit.OpenAPI.Response, api: String, at pointer: JSONPointer) -> ImportedResponse {
        guard let (mediaType, content) = MediaTypes.preferred(in: response.content, components: components) else { return .none }
        let contentPointer = pointer.appending("content", mediaType)
        switch MediaTypes.kind(of: mediaType) {
        case .json:
            guard let schema = content.schema else { return .type("JSON") }
            return .type(schemas.type(of: schema, at: contentPointer.appending("schema"), hint: api + "Response").spelling)
        case .eventStream:
            guard let item = content.itemSchema else { return .events("String") }
            return .events(schemas.type(of: item, at: contentPointer.appending("itemSchema"), hint: api + "Event").spelling)
        case .jsonLines:
            guard let item = content.itemSchema else { return .jsonLines("JSON") }
            return .jsonLines(schemas.type(of: item, at: contentPointer.appending("itemSchema"), hint: api + "Line").spelling)
        case .bytes where mediaType.hasPrefix("text/"):
            return .type("String")
        case .bytes, .form, .multipart:
            return .bytes
        }
    }

    mutating func responseHeaders(_ response: OpenAPIKit.OpenAPI.Response, api: String, at pointer: JSONPointer) -> [ImportedParameter] {
        var names = NameBook()
        var headers: [ImportedParameter] = []
        for (wireName, either) in response.headers ?? [:] {
            guard let header = components[either], case .a(let schemaContext) = header.schemaOrContent else { continue }
            let schema: JSONSchema = switch schemaContext.schema {
            case .a(let reference): .reference(reference.jsonReference)
            case .b(let schema): schema
            }
            let translated = schemas.type(of: schema, at: pointer.appending(wireName, "schema"), hint: api + Naming.typeName(wireName))
            guard isTextual(translated.spelling, allowingLists: false) else {
                schemas.report.warning("response header '\(wireName)' is \(translated.spelling), but a header is a scalar or an enum; it is not declared", at: pointer.appending(wireName))
                continue
            }
            let name = names.claim(Naming.memberName(wireName))
            headers.append(ImportedParameter(name: name, wireName: name == wireName ? nil : wireName, location: nil, type: translated.spelling, description: header.description))
        }
        return headers
    }
}
