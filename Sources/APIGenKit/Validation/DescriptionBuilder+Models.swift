import APIManifest
import Foundation

/// Models and enums: Swift names, fields, cases, and cycles a struct cannot have.
extension DescriptionBuilder {
    mutating func declareTypes() {
        var firstDeclaration: [String: SourceLocation] = [:]
        var swiftNames = SwiftNames(kind: "type")
        for file in workspace.files {
            for type in file.types {
                let name = type.name
                if let first = firstDeclaration[name.value] {
                    diagnostics.error("type '\(name.value)' is declared twice; first declared at \(first)", at: name.location)
                    continue
                }
                firstDeclaration[name.value] = name.location
                if case .external(let swiftType) = type.shape {
                    // The app's own type keeps its name: no prefix, nothing generated.
                    // Declared even when it is not found, so that its uses report nothing more.
                    checkExternalType(swiftType, of: name.value)
                    types.declare(name.value, swiftName: swiftType.value, kind: .external)
                    continue
                }
                let swiftName = prefix + SwiftIdentifier.make(from: name.value, capitalized: true)
                guard checkTypeName(swiftName, at: name.location),
                      swiftNames.claim(swiftName, for: name, into: &diagnostics)
                else { continue }
                let kind: TypeResolver.NamedKind = switch type.shape {
                case .model: .model
                case .enumeration: .enumeration
                case .union: .union
                case .external: .external
                }
                types.declare(name.value, swiftName: swiftName, kind: kind)
            }
        }
    }

    mutating func describeModel(_ type: TypeDeclaration, file: String) -> ModelDescription? {
        guard let swiftName = types.declared[type.name.value]?.swiftName else { return nil }
        let shape: ModelDescription.Shape
        switch type.shape {
        case .model(let fields):
            var swiftNames = SwiftNames.fields()
            var seenKeys: [String: SourceLocation] = [:]
            let described = fields.compactMap { field -> FieldDescription? in
                let swiftName = SwiftIdentifier.make(from: field.name.value, capitalized: false)
                let claimed = swiftNames.claim(swiftName, for: field.name, into: &diagnostics)
                let jsonKey = field.jsonKey?.value ?? field.name.value
                let keyLocation = (field.jsonKey ?? field.name).location
                if claimed, let first = seenKeys.updateValue(keyLocation, forKey: jsonKey) {
                    diagnostics.error("JSON key '\(jsonKey)' is used by two fields; first used at \(first)", at: keyLocation)
                }
                let what = "field '\(field.name.value)'"
                let fieldDefault = field.defaultValue.flatMap { defaultLiteral($0, for: field.type, of: what) }
                let format = dateFormat(field.format, for: field.type, of: what)
                guard let resolved = types.resolve(field.type, into: &diagnostics) else { return nil }
                return FieldDescription(
                    swiftName: SwiftIdentifier.escaped(swiftName), jsonKey: jsonKey,
                    type: resolved, docLines: SwiftLiteral.docLines(field.description?.value),
                    defaultLiteral: fieldDefault, dateFormat: format, declaredAt: field.name.location,
                    defaultJSON: fieldDefault == nil ? nil : field.defaultValue.map { defaultJSON($0.value, for: field.type.value) }
                )
            }
            if type.additionalProperties?.value == true, swiftNames.isTaken("additionalProperties") {
                diagnostics.error("a field named 'additionalProperties' leaves no name for the members the model keeps; rename it ('json:' keeps its JSON key)", at: type.additionalProperties!.location)
            }
            shape = .structure(fields: described)
        case .enumeration(let declaration):
            var swiftNames = SwiftNames.enumCases()
            var seenValues: [String: SourceLocation] = [:]
            let rawType = declaration.rawType?.value ?? "String"
            let described = declaration.cases.compactMap { enumCase -> EnumCaseDescription? in
                let name = Self.swiftName(of: enumCase)
                guard swiftNames.claim(name.trimmingBackticks, for: enumCase.name, into: &diagnostics) else { return nil }
                let value = normalizedRawValue(enumCase.rawValue.value, of: declaration)
                if let first = seenValues.updateValue(enumCase.rawValue.location, forKey: value), first != enumCase.rawValue.location {
                    diagnostics.error("raw value '\(enumCase.rawValue.value)' is used by two cases; first used at \(first)", at: enumCase.rawValue.location)
                }
                return EnumCaseDescription(swiftName: name, rawValue: value)
            }
            shape = .enumeration(EnumDescription(cases: described, rawType: rawType, isFrozen: declaration.frozen?.value ?? false))
        case .union(let declaration):
            guard let union = describeUnion(declaration, of: type.name.value) else { return nil }
            shape = .union(union)
        case .external:
            return nil
        }
        return ModelDescription(
            manifestName: type.name.value, declaredAt: type.name.location, swiftName: swiftName, sourceFile: file,
            generatedPath: GeneratedPaths.models(manifest: workspace.relativePath(file)), docLines: SwiftLiteral.docLines(type.description?.value), shape: shape,
            isMutable: (type.mutable ?? workspace.manifest.mutableModels)?.value ?? true,
            keepsAdditionalProperties: type.additionalProperties?.value ?? false
        )
    }

    /// `swift: Money`: the module's hand-written sources must declare `Money` (a struct, class,
    /// enum, actor or typealias), so that the name cannot fail to compile in generated code.
    @discardableResult
    mutating func checkExternalType(_ swiftType: Located<String>, of name: String) -> Bool {
        guard SwiftIdentifier.isValid(swiftType.value), !SwiftIdentifier.keywords.contains(swiftType.value) else {
            diagnostics.error("'swift:' of type '\(name)' must name a Swift type declared in the module's hand-written sources, found '\(swiftType.value)'", at: swiftType.location)
            return false
        }
        let declared = handWritten().types
        guard declared.contains(swiftType.value) else {
            // The folder as the workspace file names it: `sources:`, or the one holding `output:`.
            let manifest = workspace.manifest
            let folder = manifest.sources?.value ?? (manifest.output.value as NSString).deletingLastPathComponent
            diagnostics.error(
                "type '\(name)' is the app's '\(swiftType.value)', which no Swift file under '\(folder)' declares\(Suggestion.hint(for: swiftType.value, in: declared.sorted())); declare it there (a typealias will do) or set 'sources:' in the workspace file",
                at: swiftType.location
            )
            return false
        }
        return true
    }

    /// A struct cannot contain itself, not even through an optional: `parent: Item?` inside `Item`
    /// would have infinite size. A list or a dictionary breaks the cycle (`children: [Item]`).
    mutating func checkValueCycles() {
        // Each edge is named by the field (or a union's alternative) that holds the target.
        var edges: [String: [(target: String, field: Located<String>)]] = [:]
        // A union holds its alternative as a value too; its edges are named after the alternative.
        func holdsByValue(_ type: TypeExpression) -> String? {
            guard case .named(let target) = type.unwrapped, [.model, .union].contains(types.kind(of: target)) else { return nil }
            return target
        }
        for file in workspace.files {
            for type in file.types {
                switch type.shape {
                case .model(let fields):
                    for field in fields {
                        guard let target = holdsByValue(field.type.value) else { continue }
                        edges[type.name.value, default: []].append((target, field.name))
                    }
                case .union(let union):
                    for alternative in union.alternatives {
                        guard let target = holdsByValue(alternative.value) else { continue }
                        edges[type.name.value, default: []].append((target, Located(target, at: alternative.location)))
                    }
                case .enumeration, .external:
                    break
                }
            }
        }
        // Types that hold one another by value form a strongly connected component; each such
        // knot is reported once, with the shortest cycle through its first type in name order.
        // Both steps take time linear in the types and fields, so a chain of thousands of
        // models is checked at once.
        for component in StronglyConnected.components(of: edges.mapValues { $0.map(\.target) }) {
            let members = Set(component)
            guard let start = component.min(),
                  members.count > 1 || (edges[start] ?? []).contains(where: { $0.target == start }),
                  let cycle = Self.shortestCycle(through: start, within: members, edges: edges) else { continue }
            let chain = cycle.map(\.value).joined(separator: ".")
            diagnostics.error(
                "type '\(start)' contains itself through '\(chain)'; a Swift struct cannot. Use a list ('[\(start)]') to break the cycle",
                at: cycle[0].location
            )
        }
    }

    /// The fields of the shortest path from `start` back to itself, by breadth-first search
    /// within one strongly connected component; each type is reached once.
    private static func shortestCycle(
        through start: String, within members: Set<String>, edges: [String: [(target: String, field: Located<String>)]]
    ) -> [Located<String>]? {
        var reachedBy: [String: (from: String, field: Located<String>)] = [:]
        var queue = [start]
        var next = 0
        while next < queue.count {
            let model = queue[next]
            next += 1
            for edge in edges[model] ?? [] where members.contains(edge.target) {
                if edge.target == start {
                    var fields = [edge.field]
                    var current = model
                    while current != start, let step = reachedBy[current] {
                        fields.append(step.field)
                        current = step.from
                    }
                    return fields.reversed()
                }
                if reachedBy[edge.target] == nil {
                    reachedBy[edge.target] = (model, edge.field)
                    queue.append(edge.target)
                }
            }
        }
        return nil
    }

    /// `super-user` → `superUser`, `SOLD_OUT` → `soldOut`, `2fa` → `_2fa`.
    static func caseName(fromRawValue raw: String) -> String {
        let words = raw.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map { word in
            word.allSatisfy { $0.isUppercase || $0.isNumber } ? word.lowercased() : String(word)
        }
        var name = words.enumerated().map { index, word in
            index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if let first = name.first, first.isNumber { name = "_" + name }
        return name.isEmpty ? "_" : name
    }
}
