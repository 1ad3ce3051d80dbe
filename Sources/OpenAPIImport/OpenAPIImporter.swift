import APIManifest
import Foundation
import OpenAPIKit

/// `apigen import openapi`: an OpenAPI document as an API file of manifests. Operations become
/// REST APIs, schemas types; whatever a manifest cannot say is a warning at its JSON pointer,
/// and the rest is imported.
public enum OpenAPIImporter {
    public struct Result: Sendable {
        /// The API file's YAML; nil when the document is not valid (the diagnostics say why).
        public var manifest: String?
        public var diagnostics: Diagnostics
        /// The document's server, when it is an absolute URL: the workspace's base URL.
        public var baseURL: String?
        public var title: String?
        public var apiCount = 0
        public var typeCount = 0
    }

    /// Imports `file`. Its server becomes each API's `baseURL:` unless the workspace's default is
    /// the same or the workspace is to be written with it (`workspaceBaseURL` nil then).
    public static func importDocument(at file: String, workspaceBaseURL: String?? = nil) -> Result {
        var diagnostics = Diagnostics()
        guard let read = DocumentReader.read(file, into: &diagnostics) else {
            return Result(manifest: nil, diagnostics: diagnostics)
        }
        let document = read.document
        var report = ImportDiagnostics(sourceMap: read.sourceMap)

        let server = document.servers.first.flatMap { ServerURL.usable($0, at: JSONPointer(["servers", "0", "url"]), report: &report) }
        let pathPrefix = server.map { Self.pathPrefix(of: $0, report: &report) } ?? ""
        if !document.webhooks.isEmpty {
            report.warning("webhooks are calls the server makes, not the client; they are left out", at: JSONPointer(["webhooks"]))
        }

        var types = TypeTranslator(components: document.components, report: report)
        types.declareComponents()
        let security = SecurityTranslator(document: document, report: &types.report)
        var operations = OperationTranslator(document: document, schemas: types, pathPrefix: pathPrefix, authentication: security)
        var apis = operations.translate()
        if case .some(let workspaceBaseURL) = workspaceBaseURL, let absolute = server?.absolute, absolute != workspaceBaseURL {
            for index in apis.indices where apis[index].baseURL == nil { apis[index].baseURL = absolute }
        }
        types = operations.schemas

        var manifest = ImportedManifest()
        manifest.types = types.types.filter { !types.undeclared.contains($0.name) }
        manifest.apis = apis
        manifest.respell { [types] in types.spellingUndeclared($0) }
        report = types.report
        RecursionCheck.breakCycles(in: &manifest.types, fieldPointers: types.fieldPointers, origins: types.origins, report: &report)
        // A document of schemas alone is imported whole: its schemas are what it is for.
        if !apis.isEmpty {
            manifest.types = leavingOutUnused(manifest.types, apis: apis, origins: types.origins, report: &report)
        }

        let source = URL(fileURLWithPath: file).lastPathComponent
        manifest.header = [
            "Imported by apigen from \(source) (\"\(document.info.title)\" \(document.info.version), OpenAPI \(read.version)).",
            "Run `apigen import openapi` again to update it: edits made here are then lost.",
        ]
        diagnostics.append(contentsOf: report.finished())
        do {
            let yaml = try ManifestWriter.yaml(manifest)
            return Result(manifest: yaml, diagnostics: diagnostics, baseURL: server?.absolute, title: document.info.title, apiCount: apis.count, typeCount: manifest.types.count)
        } catch {
            diagnostics.error("cannot write the manifest: \(error)", at: .file(file))
            return Result(manifest: nil, diagnostics: diagnostics)
        }
    }

    /// The path a relative server URL puts before every API's path (`/api/v3`), or "".
    private static func pathPrefix(of server: ServerURL, report: inout ImportDiagnostics) -> String {
        guard server.absolute == nil else { return "" }
        let pointer = JSONPointer(["servers", "0", "url"])
        guard let path = server.relativePath else {
            report.warning("the server URL '\(server.text)' is not an http or https URL; set the workspace's 'defaults: baseURL:' yourself", at: pointer)
            return ""
        }
        if !path.isEmpty {
            report.warning("the server URL '\(server.text)' is relative: its path is put before every API's path; set the workspace's 'defaults: baseURL:' to the server's origin", at: pointer)
        }
        return path
    }

    /// The types the APIs use; the component schemas left out are named in one warning.
    private static func leavingOutUnused(_ types: [ImportedType], apis: [ImportedAPI], origins: [String: JSONPointer], report: inout ImportDiagnostics) -> [ImportedType] {
        let (used, unused) = Reachability.usedTypes(types, by: apis)
        let components = unused.compactMap { name in
            origins[name].flatMap { $0.tokens.count == 3 && $0.tokens[0] == "components" ? $0.tokens[2] : nil }
        }
        if !components.isEmpty {
            let listed = components.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (components.count > 5 ? " and \(components.count - 5) more" : "")
            report.warning("\(components.count) schema\(components.count == 1 ? " is" : "s are") used by no operation and left out: \(listed)", at: JSONPointer(["components", "schemas"]))
        }
        return used
    }

    /// The module an import's new workspace generates: named after the document's title.
    public static func moduleName(title: String?) -> String {
        Naming.typeName(title ?? "API") + "Client"
    }
}
