import Yams

/// An imported manifest as YAML, in the manifests' own short forms where they say everything
/// (`id: Int64`) and long forms where there is more (`json:`, `description:`).
enum ManifestWriter {
    static func yaml(_ manifest: ImportedManifest) throws -> String {
        var root: [(Node, Node)] = []
        if !manifest.types.isEmpty {
            root.append((text("types"), mapping(manifest.types.map { ($0.name, type($0)) })))
        }
        if !manifest.apis.isEmpty {
            root.append((text("apis"), mapping(manifest.apis.map { ($0.name, api($0)) })))
        }
        let body = root.isEmpty ? "{}\n" : try Yams.serialize(node: .mapping(.init(root)), indent: 2, width: -1, allowUnicode: true)
        return manifest.header.map { "# " + $0 + "\n" }.joined() + body
    }

    // MARK: Types

    private static func type(_ type: ImportedType) -> Node {
        var entries: [(String, Node)] = []
        if let description = type.description { entries.append(("description", text(description))) }
        switch type.shape {
        case .model(let fields, let additionalProperties):
            if additionalProperties { entries.append(("additionalProperties", text("true", plain: true))) }
            entries.append(("fields", mapping(fields.map { ($0.name, field($0)) })))
        case .enumeration(let rawType, let cases):
            if let rawType {
                entries.append(("type", text(rawType)))
                entries.append(("enum", mapping(cases.map { ($0.name, text($0.rawValue, plain: true)) })))
            } else if cases.allSatisfy({ $0.name == $0.rawValue }) {
                entries.append(("enum", list(cases.map(\.rawValue))))
            } else {
                entries.append(("enum", mapping(cases.map { ($0.name, text($0.rawValue)) })))
            }
        case .union(let alternatives, let discriminator, let mapping):
            entries.append(("oneOf", list(alternatives)))
            if let discriminator { entries.append(("discriminator", text(discriminator))) }
            if !mapping.isEmpty { entries.append(("mapping", self.mapping(mapping.map { ($0.value, text($0.type)) }))) }
        }
        return self.mapping(entries)
    }

    private static func field(_ field: ImportedField) -> Node {
        guard field.jsonKey != nil || field.description != nil || field.defaultValue != nil else { return text(field.type) }
        var entries: [(String, Node)] = [("type", text(field.type))]
        if let key = field.jsonKey { entries.append(("json", text(key))) }
        if let value = field.defaultValue { entries.append(("default", defaultValue(value, of: field.type))) }
        if let description = field.description { entries.append(("description", text(description))) }
        return mapping(entries)
    }

    // MARK: APIs

    private static func api(_ api: ImportedAPI) -> Node {
        var entries: [(String, Node)] = []
        if let description = api.description { entries.append(("description", text(description))) }
        entries.append(("method", text(api.method)))
        entries.append(("path", text(api.path)))
        if let baseURL = api.baseURL { entries.append(("baseURL", text(baseURL))) }
        if !api.tags.isEmpty { entries.append(("tags", list(api.tags))) }
        if api.skipsAuthentication { entries.append(("skipInterceptors", list(["authentication"]))) }
        if let body = api.body { entries.append(("body", self.body(body))) }
        if !api.parameters.isEmpty {
            entries.append(("parameters", mapping(api.parameters.map { ($0.name, parameter($0)) })))
        }
        switch api.response {
        case .none: break
        case .type(let type): entries.append(("response", text(type)))
        case .bytes: entries.append(("response", text("bytes")))
        case .events(let type): entries.append(("response", mapping([("events", text(type))], flow: true)))
        case .jsonLines(let type): entries.append(("response", mapping([("jsonLines", text(type))], flow: true)))
        }
        if !api.errorResponses.isEmpty {
            entries.append(("responses", mapping(api.errorResponses.map { ($0.status, text($0.type)) }, plainKeys: true)))
        }
        if !api.responseHeaders.isEmpty {
            entries.append(("responseHeaders", mapping(api.responseHeaders.map { ($0.name, parameter($0)) })))
        }
        if let sample = api.sample, let body = try? Yams.compose(yaml: sample.json) {
            // JSON is YAML's flow style: the example reads back as the same value.
            let status = sample.status == 200 ? [] : [("status", text(String(sample.status), plain: true))]
            entries.append(("sample", mapping(status + [("body", plain(body))])))
        }
        return mapping(entries)
    }

    private static func body(_ body: ImportedBody) -> Node {
        switch body {
        case .fields(let encoding):
            return text(encoding)
        case .value(let type, nil, nil):
            return text(type)
        case .value(let type, let name, let description):
            return mapping([("type", text(type))] + optional("name", name) + optional("description", description))
        case .bytes(let contentType, let name, let description):
            return mapping([("type", text("bytes")), ("contentType", text(contentType))] + optional("name", name) + optional("description", description))
        }
    }

    private static func parameter(_ parameter: ImportedParameter) -> Node {
        // JSON is YAML's flow style: the example reads back as the same value.
        let example = parameter.example.flatMap { try? Yams.compose(yaml: $0) }.map { [("example", plain($0))] } ?? []
        guard parameter.wireName != nil || parameter.location != nil || parameter.description != nil || parameter.defaultValue != nil || !example.isEmpty else {
            return text(parameter.type)
        }
        let defaultValue = parameter.defaultValue.map { [("default", self.defaultValue($0, of: parameter.type))] } ?? []
        return mapping(
            [("type", text(parameter.type))]
                + optional("in", parameter.location) + optional("name", parameter.wireName) + defaultValue + example
                + optional("description", parameter.description)
        )
    }

    /// A default as its type reads it: numbers and Booleans plain, anything else (an enum's raw
    /// value) as text.
    private static func defaultValue(_ value: String, of type: String) -> Node {
        text(value, plain: ["Bool", "Int", "Int32", "Int64", "Double", "Float", "Decimal"].contains(type))
    }

    // MARK: Nodes

    /// JSON as YAML reads it best: strings quoted only where YAML would read something else.
    private static func plain(_ node: Node) -> Node {
        switch node {
        case .scalar(let scalar):
            let quoted = scalar.style == .doubleQuoted || scalar.style == .singleQuoted
            return quoted ? text(scalar.string) : .scalar(.init(scalar.string))
        case .mapping(let mapping):
            return .mapping(.init(mapping.map { (plain($0.key), plain($0.value)) }))
        case .sequence(let sequence):
            return .sequence(.init(sequence.map(plain)))
        case .alias:
            return node
        }
    }

    private static func optional(_ key: String, _ value: String?) -> [(String, Node)] {
        value.map { [(key, text($0))] } ?? []
    }

    /// `plainKeys` writes status codes as the numbers they are.
    private static func mapping(_ entries: [(String, Node)], flow: Bool = false, plainKeys: Bool = false) -> Node {
        .mapping(.init(entries.map { (text($0.0, plain: plainKeys), $0.1) }, .implicit, flow ? .flow : .block))
    }

    private static func list(_ items: [String]) -> Node {
        .sequence(.init(items.map { text($0) }, .implicit, .flow))
    }

    /// A string scalar. Text that a YAML 1.1 reader would take for a number, a Boolean, a null
    /// or a date is quoted, so that every YAML tool reads it back as text; several lines are a
    /// literal block. `plain` writes numbers and Booleans as themselves.
    private static func text(_ string: String, plain: Bool = false) -> Node {
        if string.contains("\n") {
            return .scalar(.init(string, .implicit, .literal))
        }
        let resolved = Resolver.default.resolveTag(of: .scalar(.init(string)))
        let ambiguous = resolved != .str || ["y", "n", "yes", "no", "on", "off"].contains(string.lowercased())
        return .scalar(.init(string, .implicit, ambiguous && !plain ? .doubleQuoted : .any))
    }
}
