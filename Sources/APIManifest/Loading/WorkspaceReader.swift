/// Reads the workspace file's node tree into a `WorkspaceManifest`.
enum WorkspaceReader {
    static let keys = ManifestKeys.names(in: .workspace)
    static let defaultsKeys = ManifestKeys.names(in: .defaults)

    static func read(_ root: YAMLNode, into diagnostics: inout Diagnostics) -> WorkspaceManifest? {
        guard let mapping = root.requireMapping("the workspace file", into: &diagnostics) else { return nil }
        mapping.reportUnknownKeys(allowed: keys, in: "the workspace file", into: &diagnostics)

        let module = required("module", in: mapping, root: root, into: &diagnostics)
        let output = required("output", in: mapping, root: root, into: &diagnostics)
        let prefix = mapping["prefix"]?.possiblyEmptyString("prefix", into: &diagnostics)
        let templates = mapping["templates"]?.string("templates", into: &diagnostics)
        let sources = mapping["sources"]?.string("sources", into: &diagnostics)
        let mutableModels = mapping["mutableModels"]?.boolean("mutableModels", into: &diagnostics)
        let access = mapping["access"]?.keyword(AccessLevel.self, "access level", into: &diagnostics)

        var defaults = WorkspaceManifest.Defaults()
        if let node = mapping["defaults"], let values = node.requireMapping("defaults", into: &diagnostics) {
            values.reportUnknownKeys(allowed: defaultsKeys, in: "defaults", into: &diagnostics)
            defaults.baseURL = values["baseURL"]?.string("baseURL", into: &diagnostics)
            defaults.timeout = values["timeout"]?.seconds("timeout", into: &diagnostics)
            defaults.headers = Headers.read(values["headers"], into: &diagnostics)
            defaults.frequency = values["frequency"]?.keyword(FrequencyPolicy.self, "frequency policy", into: &diagnostics)
            defaults.retry = values["retry"].flatMap { PolicyReader.retry($0, into: &diagnostics) }
            defaults.rateLimit = values["rateLimit"].flatMap { PolicyReader.rateLimit($0, into: &diagnostics) }
            defaults.cache = values["cache"].flatMap { PolicyReader.cache($0, into: &diagnostics) }
            defaults.responses = values["responses"].map { APIFileReader.readResponses($0, into: &diagnostics) } ?? []
            if let node = values["maxConnectionsPerHost"], let count = node.integer("maxConnectionsPerHost", into: &diagnostics) {
                if count.value < 1 {
                    diagnostics.error("maxConnectionsPerHost must be at least 1, found \(count.value)", at: count.location)
                } else {
                    defaults.maxConnectionsPerHost = count
                }
            }
        }

        guard let module, let output else { return nil }
        return WorkspaceManifest(
            file: root.file, module: module, prefix: prefix, output: output,
            templates: templates, sources: sources, mutableModels: mutableModels, access: access, defaults: defaults
        )
    }

    private static func required(_ key: String, in mapping: YAMLMapping, root: YAMLNode, into diagnostics: inout Diagnostics) -> Located<String>? {
        guard let node = mapping[key] else {
            diagnostics.error("the workspace file needs '\(key):'", at: root.location)
            return nil
        }
        return node.string(key, into: &diagnostics)
    }
}

/// Reads `headers:` mappings, shared by the workspace defaults and every API.
enum Headers {
    static func read(_ node: YAMLNode?, into diagnostics: inout Diagnostics) -> [Header] {
        guard let node else { return [] }
        return node.stringPairs("headers", into: &diagnostics).map { Header(name: $0.name, value: $0.value) }
    }
}
