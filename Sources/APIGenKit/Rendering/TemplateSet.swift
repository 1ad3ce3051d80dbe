import APIManifest
import Foundation

/// The templates a run renders with: the built-in set, with any file of the same name in the
/// workspace's templates folder taking its place. Extra `.mustache` files there become partials.
public struct TemplateSet: Sendable {
    /// The templates apigen renders, and the partials they share, by name (without `.mustache`).
    public static let names = ["rest", "rpc", "grpc", "models", "workspace", "header", "properties", "initializer", "assignments", "request", "settings", "sample", "model", "enum", "union"]
    /// Templates included by others rather than rendered on their own.
    public static let partials: Set<String> = ["header", "properties", "initializer", "assignments", "request", "settings", "sample", "model", "enum", "union"]
    /// What each template makes, for `apigen template list`.
    public static let purpose = [
        "rest": "renders <manifest>/<Name>API.swift for REST APIs",
        "rpc": "renders <manifest>/<Name>API.swift for JSON-RPC and custom RPC APIs",
        "grpc": "renders <manifest>/<Name>API.swift for gRPC methods",
        "models": "renders <manifest>/<manifest>.models.swift, the types a manifest declares",
        "workspace": "renders APIDefaults+Workspace.swift, the workspace defaults",
        "header": "partial: an API file's imports, doc comment and class declaration, in rest, rpc and grpc",
        "initializer": "partial: an API initializer's doc comment and signature, in rest and rpc",
        "request": "partial: the RequestBuilder chain that puts each parameter where it travels, in rest and rpc",
        "settings": "partial: an API's definition settings, in rest, rpc and grpc",
        "sample": "partial: an API's manifest sample, compiled in debug builds only, in rest, rpc and grpc",
        "model": "partial: one struct, in models",
        "enum": "partial: one enum, in models",
        "union": "partial: one union, in models",
    ]

    let library: TemplateLibrary
    /// Every template's name and text: what rendering depends on besides a file's context.
    let fingerprint: Fingerprint
    /// Which templates came from the workspace's folder rather than the built-in set.
    public let overridden: [String]

    /// Loads the set; a template that does not parse is an error at its file, line and column.
    public static func load(overridesIn directory: URL?, into diagnostics: inout Diagnostics) -> TemplateSet? {
        var sources = BuiltinTemplates.all.mapValues { (text: $0, file: "<built-in>") }
        var overridden: [String] = []
        if let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
            for fileName in names.sorted() where fileName.hasSuffix(".mustache") {
                let path = directory.appendingPathComponent(fileName).path
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    diagnostics.error("cannot read template", at: .file(path))
                    continue
                }
                let name = String(fileName.dropLast(".mustache".count))
                sources[name] = (text, path)
                overridden.append(name)
            }
        }
        var templates: [String: Template] = [:]
        var fingerprint = Fingerprint()
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            fingerprint.add(name)
            fingerprint.add(source.text)
            do {
                templates[name] = try Template(source.text)
            } catch {
                let location = SourceLocation(file: source.file, line: error.line, column: error.column)
                diagnostics.error("template '\(name)' does not parse: \(error.message)", at: location)
            }
        }
        guard !diagnostics.hasErrors else { return nil }
        let library = TemplateLibrary(templates)
        for problem in library.problems {
            let file = sources[problem.template]?.file ?? "<built-in>"
            diagnostics.error("template '\(problem.template)' \(problem.message)", at: SourceLocation(file: file, line: problem.line, column: problem.column))
        }
        guard !diagnostics.hasErrors else { return nil }
        return TemplateSet(library: library, fingerprint: fingerprint, overridden: overridden)
    }

    /// The built-in templates' text by name, as `apigen` carries them.
    public static var builtinSources: [String: String] { BuiltinTemplates.all }

    func render(_ name: String, _ context: TemplateValue) -> String {
        library.render(name, context)
    }
}
