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

        /// The spelling of member `offset` of the type at `position`: a field's type or an
        /// alternative; nil past the last.
        func member(_ offset: Int, of position: Int) -> String? {
            switch types[position].shape {
            case .model(let fields, _): offset < fields.count ? fields[offset].type : nil
            case .union(let alternatives, _, _): offset < alternatives.count ? alternatives[offset] : nil
            case .enumeration: nil
            }
        }

        /// Makes member `offset` of `name` JSON, the member that closes `cycle`.
        func breakCycle(at offset: Int, of name: String, position: Int, cycle: String) {
            switch types[position].shape {
            case .model(var fields, let additional):
                let field = fields[offset]
                report.warning("'\(name)' contains itself through '\(field.name)' (\(cycle)), which only a list or a dictionary can do in Swift; '\(field.name)' is imported as JSON", at: fieldPointers[name]?[field.name] ?? origins[name] ?? .root)
                fields[offset].type = field.type.hasSuffix("?") ? "JSON?" : "JSON"
                fields[offset].defaultValue = nil
                types[position].shape = .model(fields: fields, additionalProperties: additional)
            case .union(var alternatives, let discriminator, let mapping):
                report.warning("'\(name)' contains itself through its alternative '\(alternatives[offset])' (\(cycle)), which Swift cannot hold; the alternative is imported as JSON", at: origins[name] ?? .root)
                // Left empty when the union already has a JSON alternative; emptied ones go when the union is done.
                alternatives[offset] = alternatives.contains("JSON") ? "" : "JSON"
                types[position].shape = .union(alternatives: alternatives, discriminator: discriminator, mapping: mapping)
            case .enumeration:
                break
            }
        }

        // A depth-first walk with a stack of its own, so that a chain of thousands of types
        // needs no deeper a call stack than one: each entry is a type on the path and the next
        // member of it to look at.
        for root in types.map(\.name) where state[root] == nil {
            var stack: [(name: String, position: Int, next: Int)] = [(root, index[root]!, 0)]
            state[root] = false
            path.append(root)
            while let (name, position, next) = stack.last {
                guard let spelling = member(next, of: position) else {
                    if case .union(let alternatives, let discriminator, let mapping) = types[position].shape {
                        types[position].shape = .union(alternatives: alternatives.filter { !$0.isEmpty }, discriminator: discriminator, mapping: mapping)
                    }
                    stack.removeLast()
                    path.removeLast()
                    state[name] = true
                    continue
                }
                stack[stack.count - 1].next += 1
                guard let target = contained(spelling) else { continue }
                if state[target] == false {
                    let cycle = (path.drop { $0 != target } + [target]).joined(separator: " → ")
                    breakCycle(at: next, of: name, position: position, cycle: cycle)
                } else if state[target] == nil {
                    state[target] = false
                    path.append(target)
                    stack.append((target, index[target]!, 0))
                }
            }
        }
    }
}
