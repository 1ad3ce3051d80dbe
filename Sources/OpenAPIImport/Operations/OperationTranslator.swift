import Foundation
import OpenAPIKit

/// OpenAPI operations to REST APIs: one API per operation, named after its `operationId`.
struct OperationTranslator {
    let document: OpenAPIKit.OpenAPI.Document
    var components: OpenAPIKit.OpenAPI.Components { document.components }
    /// Translates the schemas operations use, and holds the import's diagnostics.
    var schemas: TypeTranslator
    private var apiNames = NameBook()
    /// The path of a relative server URL (`/api/v3`), put before every path.
    private let pathPrefix: String
    private let authentication: SecurityTranslator

    static let methods: [OpenAPIKit.OpenAPI.HttpMethod: String] = [
        .get: "GET", .post: "POST", .put: "PUT", .patch: "PATCH", .delete: "DELETE", .head: "HEAD",
    ]
    static let textualScalars: Set<String> = [
        "String", "Int", "Int32", "Int64", "Double", "Float", "Decimal", "Bool", "Date", "CalendarDate", "URL", "UUID", "Data",
    ]

    init(document: OpenAPIKit.OpenAPI.Document, schemas: TypeTranslator, pathPrefix: String, authentication: SecurityTranslator) {
        self.document = document
        self.schemas = schemas
        self.pathPrefix = pathPrefix
        self.authentication = authentication
    }

    mutating func translate() -> [ImportedAPI] {
        var apis: [ImportedAPI] = []
        for (path, item) in document.paths {
            let pathPointer = JSONPointer(["paths", path.rawValue])
            guard let pathItem = components[item] else {
                schemas.report.warning("the path item's reference is not found; its operations are left out", at: pathPointer)
                continue
            }
            for endpoint in pathItem.endpoints {
                let pointer = pathPointer.appending(endpoint.method.rawValue.lowercased())
                guard let method = Self.methods[endpoint.method] else {
                    schemas.report.warning("\(endpoint.method.rawValue) is not a method a manifest declares (GET, POST, PUT, PATCH, DELETE, HEAD); the operation is left out", at: pointer)
                    continue
                }
                if let api = translate(endpoint.operation, method: method, path: path.rawValue, pathItem: pathItem, at: pointer) {
                    apis.append(api)
                }
            }
        }
        return apis
    }

    private mutating func translate(_ operation: OpenAPIKit.OpenAPI.Operation, method: String, path: String, pathItem: OpenAPIKit.OpenAPI.PathItem, at pointer: JSONPointer) -> ImportedAPI? {
        let name = apiNames.claim(Naming.typeName(operation.operationId ?? Self.fallbackName(method: method, path: path)))
        var api = ImportedAPI(name: name, method: method, path: pathPrefix + path)
        api.description = Self.joined([operation.summary, operation.description])
        api.tags = operation.tags ?? []
        if let servers = operation.servers ?? pathItem.servers, let server = servers.first {
            let serversPointer = operation.servers != nil ? pointer.appending("servers") : JSONPointer(Array(pointer.tokens.dropLast()) + ["servers"])
            api.baseURL = ServerURL.usable(server, at: serversPointer.appending("0", "url"), report: &schemas.report)?.absolute
        }
        api.skipsAuthentication = authentication.skipsAuthentication(operation, at: pointer, report: &schemas.report)

        var memberNames = NameBook()
        translateParameters(of: operation, pathItem: pathItem, into: &api, names: &memberNames, at: pointer)
        if let body = operation.requestBody {
            translateBody(body, into: &api, names: &memberNames, at: pointer.appending("requestBody"))
        }
        translateResponses(operation.responses, into: &api, at: pointer.appending("responses"))
        omitInferredLocations(of: &api)
        return api
    }

    /// Drops `in:` where the manifest infers the same location: a path placeholder is `path`;
    /// otherwise `body` for POST, PUT and PATCH without a whole-body value, and `query` for the rest.
    private func omitInferredLocations(of api: inout ImportedAPI) {
        let wholeBody = if case .value = api.body { true } else if case .bytes = api.body { true } else { false }
        for index in api.parameters.indices {
            let inferred = api.path.contains("{\(api.parameters[index].name)}") ? "path"
                : ["POST", "PUT", "PATCH"].contains(api.method) && !wholeBody ? "body" : "query"
            if api.parameters[index].location == inferred || api.parameters[index].location == nil && inferred == "body" {
                api.parameters[index].location = nil
            } else if api.parameters[index].location == nil {
                api.parameters[index].location = "body"
            }
        }
    }

    /// `GET /pets/{id}` → `GetPetsId`, for an operation without an `operationId`.
    static func fallbackName(method: String, path: String) -> String {
        ([method.lowercased()] + path.split(separator: "/").map { String($0) }).map(Naming.typeName).joined()
    }

    static func joined(_ parts: [String?]) -> String? {
        let text = parts.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        return text.isEmpty ? nil : text.joined(separator: "\n\n")
    }
}
