import APIManifest

/// The types the APIs use, directly or through other types. A document's components often hold
/// schemas no operation uses (webhook payloads, say), and a schema the import could not use as
/// it is (a union for a path parameter) leaves its declaration unused; apigen would warn about
/// each, so they are left out.
enum Reachability {
    static func usedTypes(_ types: [ImportedType], by apis: [ImportedAPI]) -> (used: [ImportedType], unused: [String]) {
        let byName = Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var reached: Set<String> = []
        var pending: [String] = apis.flatMap(spellings(of:)).flatMap(names(in:))
        while let name = pending.popLast() {
            guard let type = byName[name], reached.insert(name).inserted else { continue }
            switch type.shape {
            case .model(let fields, _): pending += fields.flatMap { names(in: $0.type) }
            case .union(let alternatives, _, let mapping): pending += alternatives.flatMap(names(in:)) + mapping.map(\.type)
            case .enumeration: break
            }
        }
        return (types.filter { reached.contains($0.name) }, types.map(\.name).filter { !reached.contains($0) })
    }

    private static func spellings(of api: ImportedAPI) -> [String] {
        var spellings = api.parameters.map(\.type) + api.responseHeaders.map(\.type) + api.errorResponses.map(\.type)
        if case .value(let type, _, _) = api.body { spellings.append(type) }
        switch api.response {
        case .type(let type), .events(let type), .jsonLines(let type): spellings.append(type)
        case .none, .bytes: break
        }
        return spellings
    }

    /// The names in a spelling: `[String: Pet]?` → `String`, `Pet`.
    private static func names(in spelling: String) -> [String] {
        (try? TypeExpression.parse(spelling))?.names ?? []
    }
}
