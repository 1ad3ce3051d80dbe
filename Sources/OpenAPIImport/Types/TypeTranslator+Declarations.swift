import APIGenKit
import Foundation
import OpenAPIKit

/// Declared types: enums, unions, and the models of object schemas.
extension TypeTranslator {
    mutating func declareNew(_ schema: JSONSchema, hint: String, at pointer: JSONPointer) -> String {
        let name = names.claim(Naming.typeName(hint))
        return declare(schema, named: name, at: pointer) ? name : "JSON"
    }

    /// Declares a type; false when the schema has no manifest type (a union of lists), which
    /// is then `JSON` wherever it is used.
    @discardableResult
    mutating func declare(_ schema: JSONSchema, named name: String, at pointer: JSONPointer) -> Bool {
        origins[name] = pointer
        // Appended before its fields are translated, so that the types it declares inline follow it.
        let index = types.count
        types.append(ImportedType(name: name, description: Self.description(of: schema), shape: .model(fields: [], additionalProperties: false)))
        guard let shape = shape(of: schema, named: name, at: pointer) else {
            types[index].shape = .union(alternatives: [], discriminator: nil, mapping: [])
            undeclared.insert(name)
            return false
        }
        types[index].shape = shape
        return true
    }

    mutating func shape(of schema: JSONSchema, named name: String, at pointer: JSONPointer) -> ImportedType.Shape? {
        switch schema.value {
        case .string, .integer, .fragment:
            let varNames = (schema.vendorExtensions["x-enum-varnames"]?.value as? [Any])?.compactMap { $0 as? String }
            return enumeration(schema.allowedValues ?? [], integer: schema.isInteger, varNames: varNames, at: pointer)
        case .one(let alternatives, _), .any(let alternatives, _):
            return union(alternatives, discriminator: schema.discriminator, key: schema.value.isOneOf ? "oneOf" : "anyOf", named: name, at: pointer)
        default:
            let (properties, additional) = mergedProperties(of: schema, at: pointer)
            return .model(fields: fields(properties, of: name), additionalProperties: additional)
        }
    }

    /// An enum's cases. Names come from `x-enum-varnames` when the document gives one per value
    /// (as openapi-generator reads it), else from the values: integers as `value1`, strings as
    /// themselves unless two make the same Swift name (`+1` and `-1` become `plus1`, `minus1`).
    mutating func enumeration(_ values: [AnyCodable], integer: Bool, varNames: [String]?, at pointer: JSONPointer) -> ImportedType.Shape {
        var seen = Set<String>()
        var cases: [(name: String, rawValue: String)] = []
        var suggested: [String?] = []
        for (index, value) in values.enumerated() {
            let raw: String
            switch value.value {
            case let text as String where !integer: raw = text
            case let number as Int: raw = String(number)
            case let number as Int64: raw = String(number)
            case is Void, is NSNull: continue  // null, allowed by a nullable enum
            default:
                report.warning("the enum value '\(value)' is not a\(integer ? "n integer" : " string"); it is left out", at: pointer.appending("enum"))
                continue
            }
            guard seen.insert(raw).inserted else { continue }
            cases.append((raw, raw))
            suggested.append(varNames.flatMap { $0.count == values.count ? $0[index] : nil })
        }
        var caseNames = NameBook()
        if suggested.allSatisfy({ $0 != nil }), !cases.isEmpty {
            cases = zip(cases, suggested).map { (caseNames.claim(Naming.memberName($1!)), $0.rawValue) }
            return .enumeration(rawType: integer ? "Int" : nil, cases: cases)
        }
        if integer {
            cases = cases.map { (caseNames.claim(Naming.memberName($0.rawValue.hasPrefix("-") ? "minus" + $0.rawValue.dropFirst() : "value" + $0.rawValue)), $0.rawValue) }
            return .enumeration(rawType: "Int", cases: cases)
        }
        let derived = cases.map { SwiftIdentifier.make(from: $0.rawValue, capitalized: false) }
        if Set(derived).count < derived.count {
            cases = cases.map { value in
                let spelled = value.rawValue.replacingOccurrences(of: "+", with: " plus ").replacingOccurrences(of: "-", with: " minus ")
                return (caseNames.claim(Naming.memberName(spelled)), value.rawValue)
            }
        }
        return .enumeration(rawType: nil, cases: cases)
    }

    mutating func union(
        _ alternatives: [JSONSchema], discriminator: OpenAPIKit.OpenAPI.Discriminator?, key: String, named name: String, at pointer: JSONPointer
    ) -> ImportedType.Shape? {
        var spellings: [String] = []
        for (index, alternative) in alternatives.enumerated() where !alternative.isNull {
            let translated = type(of: alternative, at: pointer.appending(key, String(index)), hint: name + "\(index + 1)")
            if spellings.contains(translated.spelling) {
                report.warning("two alternatives are both imported as \(translated.spelling); the second is left out", at: pointer.appending(key, String(index)))
                continue
            }
            spellings.append(translated.spelling)
        }
        if let collection = spellings.first(where: { $0.hasPrefix("[") }) {
            report.warning("an alternative is a list or a map (\(collection)), which a union cannot hold; the value is imported as JSON", at: pointer.appending(key))
            return nil
        }
        guard let discriminator else { return .union(alternatives: spellings, discriminator: nil, mapping: []) }
        // Whether each alternative carries the discriminator is read from its translated type.
        for alternative in alternatives {
            if let key = component(referencedBy: alternative)?.key { translateComponent(key) }
        }
        guard spellings.allSatisfy({ carries(discriminator.propertyName, model: $0) }) else {
            report.warning("the discriminator '\(discriminator.propertyName)' is not a required string member of every alternative; the alternatives are tried in order instead", at: pointer.appending("discriminator"))
            return .union(alternatives: spellings, discriminator: nil, mapping: [])
        }
        // The manifest's default mapping is the type's name, the document's the schema's key:
        // the mapping is written out whenever the two differ.
        var mapping: [(value: String, type: String)] = []
        for (value, target) in discriminator.mapping ?? [:] {
            let key = target.hasPrefix("#/components/schemas/") ? String(target.dropFirst("#/components/schemas/".count)) : target
            if let type = declared[key], spellings.contains(type) {
                mapping.append((value, type))
            } else {
                report.warning("the discriminator value '\(value)' maps to '\(target)', which is not one of the alternatives; it is left out", at: pointer.appending("discriminator", "mapping", value))
            }
        }
        for (key, type) in declared.sorted(by: { $0.key < $1.key }) where spellings.contains(type) && !mapping.contains(where: { $0.type == type }) {
            mapping.append((key, type))
        }
        let needsMapping = mapping.contains { $0.value != $0.type }
        return .union(alternatives: spellings, discriminator: discriminator.propertyName, mapping: needsMapping ? mapping : [])
    }

    /// Whether `model` is a model with a required member `key` that is a String or a string enum.
    func carries(_ key: String, model: String) -> Bool {
        guard let type = types.first(where: { $0.name == model }), case .model(let fields, _) = type.shape,
              let field = fields.first(where: { ($0.jsonKey ?? $0.name) == key }) else { return false }
        return field.type == "String" || types.contains { type in
            guard type.name == field.type, case .enumeration(nil, _) = type.shape else { return false }
            return true
        }
    }

    func isEnumeration(_ spelling: String) -> Bool {
        types.contains { type in
            guard type.name == spelling, case .enumeration = type.shape else { return false }
            return true
        }
    }

    func isModel(_ spelling: String) -> Bool {
        types.contains { type in
            guard type.name == spelling, case .model = type.shape else { return false }
            return true
        }
    }

    /// The members of a form's schema, which become the API's body parameters.
    mutating func properties(ofBody schema: JSONSchema?, at pointer: JSONPointer) -> [Property] {
        guard let schema else { return [] }
        let target = component(referencedBy: schema)
        return mergedProperties(of: target?.schema ?? schema, at: target?.pointer ?? pointer).0
    }

    /// The component schema `schema` refers to, its key, and where it is; nil when it is no
    /// reference to one.
    func component(referencedBy schema: JSONSchema) -> (schema: JSONSchema, key: String, pointer: JSONPointer)? {
        guard case .reference(let reference, _) = schema.value, let key = reference.name,
              let target = schemas[.init(stringLiteral: key)] else { return nil }
        return (target, key, JSONPointer(["components", "schemas", key]))
    }
}
