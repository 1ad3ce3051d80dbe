import APIManifest

/// A Swift struct cannot hold itself except through a list or a dictionary, so a manifest type
/// cannot either. Where a document's schema does, the member that closes the cycle is imported as
/// `JSON`, with a warning naming the cycle.
enum RecursionCheck {
    static func breakCycles(in types: inout [ImportedType], fieldPointers: [String: [String: JSONPointer]], origins: [String: JSONPointer], report: inout ImportDiagnostics) {
        let index = Dictionary(types.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var state: [String: Bool] = [:]  // false: on the path being walked; true: done
        var path: [String] = []

        /// The model or union a member holds directly (optional or not), not through a collection.
        func contained(_ spelling: String) -> String? {
            guard case .named(let bare)? = (try? TypeExpression.parse(spelling))?.unwrapped,
                  let position = index[bare] else { return nil }
            if case .enumeration = types[position].shape { return nil }
            return bare
        }

        func visit(_ name: String) {
            state[name] = false
            path.append(name)
            let position = index[name]!
            switch types[position].shape {
            case .model(var fields, let additional):
                for (offset, field) in fields.enumerated() {
                    guard let target = contained(field.type) else { continue }
                    if state[target] == false {
                        let cycle = (path.drop { $0 != target } + [target]).joined(separator: " → ")
                        report.warning("'\(name)' contains itself through '\(field.name)' (\(cycle)), which only a list or a dictionary can do in Swift; '\(field.name)' is imported as JSON", at: fieldPointers[name]?[field.name] ?? origins[name] ?? .root)
                        fields[offset].type = field.type.hasSuffix("?") ? "JSON?" : "JSON"
                        fields[offset].defaultValue = nil
                    } else if state[target] == nil {
                        types[position].shape = .model(fields: fields, additionalProperties: additional)
                        visit(target)
                    }
                }
                types[position].shape = .model(fields: fields, additionalProperties: additional)
            case .union(var alternatives, let discriminator, let mapping):
                for (offset, alternative) in alternatives.enumerated() {
                    guard let target = contained(alternative) else { continue }
                    if state[target] == false {
                        let cycle = (path.drop { $0 != target } + [target]).joined(separator: " → ")
                        report.warning("'\(name)' contains itself through its alternative '\(alternative)' (\(cycle)), which Swift cannot hold; the alternative is imported as JSON", at: origins[name] ?? .root)
                        alternatives[offset] = alternatives.contains("JSON") ? "" : "JSON"
                    } else if state[target] == nil {
                        visit(target)
                    }
                }
                types[position].shape = .union(alternatives: alternatives.filter { !$0.isEmpty }, discriminator: discriminator, mapping: mapping)
            case .enumeration:
                break
            }
            path.removeLast()
            state[name] = true
        }

        for type in types.map(\.name) where state[type] == nil {
            visit(type)
        }
    }
}
