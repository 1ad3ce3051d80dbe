import APIManifest
import Foundation

/// The workspace's JSON-RPC APIs as an OpenRPC 1.3 document (`apigen export openrpc`): a method
/// per remote method, with its parameters in order, its result (none for a notification), and a
/// schema per declared type under `components`.
public enum OpenRPCExporter {
    /// The document, with a note for each API left out: a second API calling a method, and
    /// methods named `rpc.…`, which JSON-RPC reserves for the protocol's own and OpenRPC does not
    /// describe.
    public static func export(_ workspace: LoadedWorkspace, _ description: WorkspaceDescription) -> ExportedDocument {
        var methods: [[String: Any]] = []
        var notes: [Diagnostic] = []
        var seen: [String: String] = [:]
        // OpenRPC describes JSON-RPC only: a team's own protocol, REST and gRPC have documents of their own.
        let jsonRPC = description.apis.filter { $0.kind == .jsonrpc }
        let endpoints = jsonRPC.map { endpoint(of: $0, defaults: description.defaults) }
        // The most common endpoint is the document's server (the first of equals); methods
        // elsewhere name their own.
        let counts = Dictionary(endpoints.compactMap { $0 }.map { ($0, 1) }, uniquingKeysWith: +)
        let server = endpoints.compactMap { $0 }.first { counts[$0] == counts.values.max() }

        for (api, url) in zip(jsonRPC, endpoints) {
            guard case .jsonRPC(let rpc) = api.shape else { continue }
            if rpc.method.hasPrefix("rpc.") {
                notes.append(Diagnostic(.note, "'\(api.manifestName)' calls '\(rpc.method)', a name JSON-RPC reserves for the protocol's own methods; an OpenRPC document does not describe those, so it is left out", at: api.declaredAt))
                continue
            }
            if let first = seen[rpc.method] {
                notes.append(Diagnostic(.note, "'\(api.manifestName)' calls '\(rpc.method)' as '\(first)' does; an OpenRPC document names a method once, so it describes '\(first)'", at: api.declaredAt))
                continue
            }
            seen[rpc.method] = api.manifestName
            var method: [String: Any] = [
                "name": rpc.method,
                "paramStructure": rpc.structure == .byPosition ? "by-position" : "by-name",
                "params": params(api.parameters, structure: rpc.structure),
            ]
            if !api.docLines.isEmpty { method["description"] = api.docLines.joined(separator: "\n") }
            if !api.tags.isEmpty { method["tags"] = api.tags.map { ["name": $0] } }
            if !rpc.isNotification {
                method["result"] = ["name": "result", "schema": schema(api.response.type)]
            }
            if let url, url != server { method["servers"] = [["name": api.manifestName, "url": url]] }
            methods.append(method)
        }

        var document: [String: Any] = [
            "openrpc": "1.3.2",
            "info": ["title": description.module, "version": "1"],
            "methods": methods,
            "components": ["schemas": SchemaWriter.schemas(of: workspace)],
        ]
        if let server { document["servers"] = [["name": "default", "url": server]] }
        return .serializing(document, diagnostics: notes, at: .file(workspace.manifest.output.location.file))
    }

    /// Where the API's calls go: its `url:` joined to its base URL, or the absolute `url:`.
    private static func endpoint(of api: APIDescription, defaults: DefaultsDescription) -> String? {
        let path = api.shape.rpc?.path ?? ""
        guard let base = api.baseURL ?? defaults.baseURL else { return path.isEmpty ? nil : path }
        if path.isEmpty { return base }
        return base.hasSuffix("/") || path.hasPrefix("/") ? base + path : base + "/" + path
    }

    /// By position, every parameter is sent (a nil as `null`, to keep the places of the ones after
    /// it), so each is required and an optional one may be null. By name, a nil is left out, so an
    /// optional parameter is not required; the required ones come first, as OpenRPC asks.
    private static func params(_ parameters: [ParameterDescription], structure: ParameterStructure) -> [[String: Any]] {
        switch structure {
        case .byPosition:
            return parameters.map { contentDescriptor($0, required: true) }
        case .byName:
            let ordered = parameters.filter { !$0.type.isOptional } + parameters.filter(\.type.isOptional)
            return ordered.map { contentDescriptor($0, required: !$0.type.isOptional) }
        }
    }

    private static func contentDescriptor(_ parameter: ParameterDescription, required: Bool) -> [String: Any] {
        var schema = schema(parameter.type, format: parameter.dateFormat)
        if required, parameter.type.isOptional { schema = nullable(schema) }
        var descriptor: [String: Any] = [
            "name": parameter.wireName,
            "required": required,
            "schema": schema,
        ]
        if !parameter.docLines.isEmpty { descriptor["description"] = parameter.docLines.joined(separator: "\n") }
        return descriptor
    }

    /// The schema, or null.
    private static func nullable(_ schema: [String: Any]) -> [String: Any] {
        if schema.isEmpty { return schema }
        if let type = schema["type"] as? String {
            var copy = schema
            copy["type"] = [type, "null"]
            return copy
        }
        return ["anyOf": [schema, ["type": "null"]]]
    }

    private static func schema(_ type: SwiftType, format: DateFormat = .iso8601) -> [String: Any] {
        guard let expression = type.expression else { return [:] }
        return SchemaWriter.schema(expression.unwrapped, format: format)
    }
}
