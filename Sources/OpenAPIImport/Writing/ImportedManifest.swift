/// What an import makes, in the order it is written: the types, then the APIs. Type spellings
/// are the manifest's (`[Pet]`, `String?`).
struct ImportedManifest {
    var header: [String] = []
    var types: [ImportedType] = []
    var apis: [ImportedAPI] = []
}

struct ImportedType {
    enum Shape {
        case model(fields: [ImportedField], additionalProperties: Bool)
        /// String cases as a list; integer cases (`rawType` set) by name.
        case enumeration(rawType: String?, cases: [(name: String, rawValue: String)])
        case union(alternatives: [String], discriminator: String?, mapping: [(value: String, type: String)])
    }

    var name: String
    var description: String?
    var shape: Shape
}

struct ImportedField {
    /// The Swift name; the JSON key when it differs.
    var name: String
    var jsonKey: String?
    var type: String
    var description: String?
    var defaultValue: String?
}

struct ImportedParameter {
    var name: String
    var wireName: String?
    var location: String?
    var type: String
    var description: String?
    /// The value the schema's `default` gives; the type is then not optional.
    var defaultValue: String?
    /// The parameter's `example` (or first `examples` value) as JSON: what `apigen verify` sends.
    var example: String? = nil
}

enum ImportedBody {
    /// The `in: body` parameters, in a form or a multipart form.
    case fields(encoding: String)
    /// The whole body is one value of a type, in JSON.
    case value(type: String, name: String?, description: String?)
    /// The bytes as they are, with their content type.
    case bytes(contentType: String, name: String?, description: String?)
}

struct ImportedAPI {
    var name: String
    var description: String?
    var method: String
    var path: String
    var baseURL: String?
    var tags: [String] = []
    var parameters: [ImportedParameter] = []
    var body: ImportedBody?
    /// The `response:` spelling (`Pet`, `none`, `bytes`, `{ events: String }` as a pair).
    var response: ImportedResponse = .none
    /// Error statuses (`404`, `default`) and their body types.
    var errorResponses: [(status: String, type: String)] = []
    var responseHeaders: [ImportedParameter] = []
    var skipsAuthentication = false
    /// The success's example, as JSON text, and its status: the API's `sample:`.
    var sample: (status: Int, json: String)?
}

enum ImportedResponse: Equatable {
    case none
    case type(String)
    case bytes
    case events(String)
    case jsonLines(String)
}

extension ImportedManifest {
    /// Every type spelling of the types and APIs passed through `transform`.
    mutating func respell(_ transform: (String) -> String) {
        for index in types.indices {
            switch types[index].shape {
            case .model(var fields, let additionalProperties):
                for field in fields.indices { fields[field].type = transform(fields[field].type) }
                types[index].shape = .model(fields: fields, additionalProperties: additionalProperties)
            case .enumeration:
                break
            case .union(let alternatives, let discriminator, let mapping):
                types[index].shape = .union(
                    alternatives: alternatives.map(transform), discriminator: discriminator,
                    mapping: mapping.map { ($0.value, transform($0.type)) }
                )
            }
        }
        for index in apis.indices {
            apis[index].parameters = apis[index].parameters.map { $0.respelled(transform) }
            apis[index].responseHeaders = apis[index].responseHeaders.map { $0.respelled(transform) }
            apis[index].errorResponses = apis[index].errorResponses.map { ($0.status, transform($0.type)) }
            if case .value(let type, let name, let description) = apis[index].body {
                apis[index].body = .value(type: transform(type), name: name, description: description)
            }
            switch apis[index].response {
            case .type(let type): apis[index].response = .type(transform(type))
            case .events(let type): apis[index].response = .events(transform(type))
            case .jsonLines(let type): apis[index].response = .jsonLines(transform(type))
            case .none, .bytes: break
            }
        }
    }
}

private extension ImportedParameter {
    func respelled(_ transform: (String) -> String) -> ImportedParameter {
        var copy = self
        copy.type = transform(type)
        return copy
    }
}
