import APIManifest
import Foundation

/// The workspace's REST APIs as an OpenAPI 3.1 document (`apigen export openapi`): a path item
/// per path, an operation per API, and a schema per declared type under `components`.
public enum OpenAPIExporter {
    /// The document, or errors: an OpenAPI document holds one operation per method and path, so
    /// two APIs that share both (`/users/{id}` and `/users/{userId}` are one path) are an error
    /// naming both.
    public static func export(_ workspace: LoadedWorkspace, _ description: WorkspaceDescription) -> ExportedDocument {
        // Error bodies are named by their Swift type; their schemas by the manifest's name.
        let manifestNames = Dictionary(description.models.map { ($0.swiftName, $0.manifestName) }, uniquingKeysWith: { first, _ in first })
        var paths: [String: [String: Any]] = [:]
        var diagnostics: [Diagnostic] = []
        var operations: [String: APIDescription] = [:]
        for api in description.apis {
            guard let rest = api.shape.rest else { continue }
            let path = documentPath(rest.path)
            let method = rest.method.rawValue.lowercased()
            let key = "\(method) " + path.replacing(/\{[^}]*\}/, with: "{}")
            if let first = operations[key] {
                diagnostics.append(Diagnostic(
                    .error,
                    "'\(api.manifestName)' is \(rest.method.rawValue) \(path), as '\(first.manifestName)' at \(first.declaredAt) is; an OpenAPI document has one operation per method and path, so it cannot describe both",
                    at: api.declaredAt
                ))
                continue
            }
            operations[key] = api
            paths[path, default: [:]][method] = operation(api, rest, description.defaults, manifestNames)
        }
        var document: [String: Any] = [
            "openapi": "3.1.0",
            "info": ["title": description.module, "version": "1"],
            "paths": paths,
            "components": ["schemas": SchemaWriter.schemas(of: workspace)],
        ]
        if let baseURL = description.defaults.baseURL {
            document["servers"] = [["url": baseURL]]
        }
        return .serializing(document, diagnostics: diagnostics, at: .file(workspace.manifest.output.location.file))
    }

    /// The path as OpenAPI writes it: from `/`, as the runtime sends it (`users/{id}` goes to
    /// `/users/{id}` after the base URL's path, and an empty path to the base URL itself).
    static func documentPath(_ path: String) -> String {
        path.hasPrefix("/") ? path : "/" + path
    }

    private static func operation(
        _ api: APIDescription, _ rest: RESTDescription, _ defaults: DefaultsDescription, _ manifestNames: [String: String]
    ) -> [String: Any] {
        var operation: [String: Any] = ["operationId": api.manifestName]
        if !api.docLines.isEmpty { operation["description"] = api.docLines.joined(separator: "\n") }
        if !api.tags.isEmpty { operation["tags"] = api.tags }
        if let baseURL = api.baseURL { operation["servers"] = [["url": baseURL]] }

        let sent = api.parameters.filter { !$0.isDownloadDestination }
        let parameters = sent.filter { $0.location != .body }.map { parameter -> [String: Any] in
            var item: [String: Any] = [
                "name": parameter.wireName, "in": parameter.location.rawValue,
                "required": parameter.location == .path || !parameter.type.isOptional,
                "schema": schema(parameter.type, format: parameter.dateFormat),
            ]
            if !parameter.docLines.isEmpty { item["description"] = parameter.docLines.joined(separator: "\n") }
            return item
        }
        if !parameters.isEmpty { operation["parameters"] = parameters }
        if let body = requestBody(sent.filter { $0.location == .body }, rest.body) { operation["requestBody"] = body }

        var responses: [String: Any] = [:]
        var success: [String: Any] = ["description": "Success"]
        if let content = responseContent(api.response) { success["content"] = content }
        if !api.responseHeaders.isEmpty {
            success["headers"] = Dictionary(uniqueKeysWithValues: api.responseHeaders.map { header in
                var item: [String: Any] = ["schema": schema(header.type, format: .iso8601)]
                if !header.docLines.isEmpty { item["description"] = header.docLines.joined(separator: "\n") }
                return (header.wireName, item)
            })
        }
        responses[api.response.decoding == .noContent ? "204" : "200"] = success
        for error in api.errorResponses + defaults.errorResponses {
            let key = error.status.map(String.init) ?? "default"
            guard responses[key] == nil, let name = manifestNames[error.swiftType] else { continue }
            responses[key] = [
                "description": error.status.map { "Status \($0)" } ?? "Any other error status",
                "content": ["application/json": ["schema": ["$ref": SchemaWriter.reference(name)]]],
            ]
        }
        operation["responses"] = responses
        return operation
    }

    private static func requestBody(_ parameters: [ParameterDescription], _ shape: BodyShape) -> [String: Any]? {
        switch shape {
        case .value:
            guard let parameter = parameters.first else { return nil }
            return ["required": true, "content": ["application/json": ["schema": schema(parameter.type, format: .iso8601)]]]
        case .bytes(let contentType):
            return ["required": true, "content": [contentType: ["schema": ["type": "string", "format": "binary"]]]]
        case .fields(let encoding):
            guard !parameters.isEmpty else { return nil }
            var properties: [String: Any] = [:]
            for parameter in parameters {
                properties[parameter.wireName] = schema(parameter.type, format: parameter.dateFormat)
            }
            var object: [String: Any] = ["type": "object", "properties": properties]
            let required = parameters.filter { !$0.type.isOptional }.map(\.wireName)
            if !required.isEmpty { object["required"] = required }
            let mediaType = switch encoding {
            case .json: "application/json"
            case .form: "application/x-www-form-urlencoded"
            case .multipart: "multipart/form-data"
            }
            return ["required": true, "content": [mediaType: ["schema": object]]]
        }
    }

    private static func responseContent(_ response: ResponseDescription) -> [String: Any]? {
        switch response.decoding {
        case .noContent:
            return nil
        case .json:
            return ["application/json": ["schema": schema(response.type, format: .iso8601)]]
        case .text:
            return ["text/plain": ["schema": ["type": "string"]]]
        case .bytes, .download:
            return ["application/octet-stream": ["schema": ["type": "string", "format": "binary"]]]
        case .events, .textEvents:
            return ["text/event-stream": ["schema": ["type": "string"]]]
        case .jsonLines:
            return ["application/jsonl": ["schema": ["type": "string"]]]
        case .protobuf, .grpcStream:
            return nil
        }
    }

    private static func schema(_ type: SwiftType, format: DateFormat) -> [String: Any] {
        guard let expression = type.expression else { return [:] }
        return SchemaWriter.schema(expression.unwrapped, format: format)
    }
}
