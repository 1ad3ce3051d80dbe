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
                let swiftName = prefix + SwiftIdentifier.make(from: name.value, capitalized: true)
                guard checkTypeName(swiftName, at: name.location),
                      swiftNames.claim(swiftName, for: name, into: &diagnostics)
                else { continue }
                if case .enumeration = type.shape {
                    types.declare(name.value, swiftName: swiftName, kind: .enumeration)
                } else {
                    types.declare(name.value, swiftName: swiftName, kind: .model)
                }
            }
        }
    }

    mutating func describeModel(_ type: TypeDeclaration, file: String) -> ModelDescription? {
        guard let swiftName = types.declared[type.name.value]?.swiftName else { return nil }
        let shape: ModelDescription.Shape
        switch type.shape {
        case .model(let fields):
            var swiftNames = SwiftNames(kind: "field")
            var seenKeys: [String: SourceLocation] = [:]
            let described = fields.compactMap { field -> FieldDescription? in
                let swiftName = SwiftIdentifier.make(from: field.name.value, capitalized: false)
                let claimed = swiftNames.claim(swiftName, for: field.name, into: &diagnostics)
                let jsonKey = field.jsonKey?.value ?? field.name.value
                let keyLocation = (field.jsonKey ?? field.name).location
                if claimed, let first = seenKeys.updateValue(keyLocation, forKey: jsonKey) {
                    diagnostics.error("JSON key '\(jsonKey)' is used by two fields; first used at \(first)", at: keyLocation)
                }
                guard let resolved = types.resolve(field.type, into: &diagnostics) else { return nil }
                return FieldDescription(
                    swiftName: SwiftIdentifier.escaped(swiftName), jsonKey: jsonKey,
                    type: resolved, docLines: SwiftLiteral.docLines(field.description?.value)
                )
            }
            shape = .structure(fields: described)
        case .enumeration(let cases):
            var swiftNames = SwiftNames(kind: "enum case")
            var seenValues: [String: SourceLocation] = [:]
            let described = cases.compactMap { enumCase -> EnumCaseDescription? in
                // The list form names cases after their raw values; make those Swift-shaped.
                let written = enumCase.name.value
                let name = SwiftIdentifier.isValid(written) ? written
                    : enumCase.name == enumCase.rawValue ? Self.caseName(fromRawValue: written)
                    : SwiftIdentifier.make(from: written, capitalized: false)
                guard swiftNames.claim(name, for: enumCase.name, into: &diagnostics) else { return nil }
                if let first = seenValues.updateValue(enumCase.rawValue.location, forKey: enumCase.rawValue.value), first != enumCase.rawValue.location {
                    diagnostics.error("raw value '\(enumCase.rawValue.value)' is used by two cases; first used at \(first)", at: enumCase.rawValue.location)
                }
                return EnumCaseDescription(swiftName: SwiftIdentifier.escaped(name), rawValue: enumCase.rawValue.value)
            }
            shape = .enumeration(cases: described)
        }
        return ModelDescription(
            manifestName: type.name.value, declaredAt: type.name.location, swiftName: swiftName, sourceFile: file,
            generatedPath: GeneratedPaths.models(manifest: workspace.relativePath(file)), docLines: SwiftLiteral.docLines(type.description?.value), shape: shape,
            isMutable: (type.mutable ?? workspace.manifest.mutableModels)?.value ?? false
        )
    }

    /// A struct cannot contain itself, not even through an optional: `parent: Item?` inside `Item`
    /// would have infinite size. A list or a dictionary breaks the cycle (`children: [Item]`).
    mutating func checkValueCycles() {
        var edges: [String: [(target: String, field: FieldDeclaration)]] = [:]
        for file in workspace.files {
            for type in file.types {
                guard case .model(let fields) = type.shape else { continue }
                for field in fields {
                    guard case .named(let target) = field.type.value.unwrapped, types.kind(of: target) == .model else { continue }
                    edges[type.name.value, default: []].append((target, field))
                }
            }
        }
        var reported: Set<Set<String>> = []
        for start in edges.keys.sorted() {
            // Depth-first search for a path of stored fields leading back to `start`.
            var stack: [(model: String, path: [FieldDeclaration])] = [(start, [])]
            var visited: Set<String> = []
            while let (model, path) = stack.popLast() {
                for edge in edges[model] ?? [] {
                    let newPath = path + [edge.field]
                    if edge.target == start {
                        let first = newPath[0]
                        // Each cycle is reported once, from the first of its types in name order.
                        let members = Set(newPath.map(\.name.location.description))
                        guard reported.insert(members).inserted else { continue }
                        let chain = newPath.map(\.name.value).joined(separator: ".")
                        diagnostics.error(
                            "type '\(start)' contains itself through '\(chain)'; a Swift struct cannot. Use a list ('[\(edge.target)]') to break the cycle",
                            at: first.name.location
                        )
                    } else if visited.insert(edge.target).inserted {
                        stack.append((edge.target, newPath))
                    }
                }
            }
        }
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
