import Foundation
import OpenAPIKit

/// Object schemas' members as a model's fields.
extension TypeTranslator {
    struct Property {
        var key: String
        var schema: JSONSchema
        var pointer: JSONPointer
        var required: Bool
    }

    /// The properties of an object, or of every object an `allOf` combines, in order.
    mutating func mergedProperties(of schema: JSONSchema, at pointer: JSONPointer, depth: Int = 0) -> ([Property], Bool) {
        guard depth < 32 else {
            report.warning("'allOf' nests too deep; the rest is left out", at: pointer)
            return ([], false)
        }
        switch schema.value {
        case .object(_, let object):
            let required = Set(object.requiredProperties)
            let properties = object.properties.map { key, value in
                Property(key: key, schema: value, pointer: pointer.appending("properties", key), required: required.contains(key))
            }
            let additional: Bool
            switch object.additionalProperties {
            case .a(let allowed): additional = allowed
            case .b: additional = true
            case nil: additional = false
            }
            return (properties, additional)
        case .all(let parts, _):
            var merged: [Property] = []
            var additional = false
            for (index, part) in parts.enumerated() {
                let partPointer = pointer.appending("allOf", String(index))
                let target = component(referencedBy: part)
                let (properties, allowsMore) = mergedProperties(of: target?.schema ?? part, at: target?.pointer ?? partPointer, depth: depth + 1)
                for property in properties {
                    if let existing = merged.firstIndex(where: { $0.key == property.key }) {
                        merged[existing].required = merged[existing].required || property.required
                    } else {
                        merged.append(property)
                    }
                }
                additional = additional || allowsMore
            }
            return (merged, additional)
        case .fragment:
            return ([], false)
        default:
            report.warning("'allOf' combines a schema that is not an object; it is left out", at: pointer)
            return ([], false)
        }
    }

    mutating func fields(_ properties: [Property], of model: String) -> [ImportedField] {
        var names = NameBook()
        var fields: [ImportedField] = []
        for property in properties {
            let name = names.claim(Naming.memberName(property.key))
            let translated = type(of: property.schema, at: property.pointer, hint: model + Naming.typeName(property.key))
            // A write-only member is left out of replies, so it cannot be required when decoding.
            let optional = !property.required || translated.isNullable || property.schema.writeOnly
            var field = ImportedField(
                name: name,
                jsonKey: name == property.key ? nil : property.key,
                type: translated.spelling + (optional ? "?" : ""),
                description: Self.description(of: property.schema)
            )
            if optional, let value = defaultValue(of: property.schema, type: translated.spelling) {
                field.type = translated.spelling
                field.defaultValue = value
            }
            fieldPointers[model, default: [:]][name] = property.pointer
            fields.append(field)
        }
        return fields
    }

    /// A default the manifest can say: a string, number or Boolean, for a scalar or an enum.
    func defaultValue(of schema: JSONSchema, type: String) -> String? {
        guard let value = (schema.defaultValue ?? component(referencedBy: schema)?.schema.defaultValue)?.value else { return nil }
        let scalars: Set<String> = ["String", "Int", "Int32", "Int64", "Double", "Float", "Decimal", "Bool"]
        let enumCases = types.first { $0.name == type }.flatMap { type -> [String]? in
            if case .enumeration(_, let cases) = type.shape { return cases.map(\.rawValue) }
            return nil
        }
        let text: String
        switch value {
        case let bool as Bool: text = bool ? "true" : "false"
        case let string as String: text = string
        case let number as Int: text = String(number)
        case let number as Double: text = String(number)
        default: return nil
        }
        if let enumCases { return enumCases.contains(text) ? text : nil }
        guard scalars.contains(type) else { return nil }
        switch type {
        case "Bool": return value is Bool ? text : nil
        case "String": return value is String ? text : nil
        case "Int", "Int32", "Int64": return value is Int ? text : nil
        default: return value is Int || value is Double ? text : nil
        }
    }

    static func description(of schema: JSONSchema) -> String? {
        let text = [schema.title, schema.description].compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        return text.isEmpty ? nil : text.joined(separator: "\n\n")
    }
}
