import OpenAPIKit

/// Constraints a manifest has no word for: counted and reported once per keyword.
extension TypeTranslator {
    mutating func noteIgnoredKeywords(of schema: JSONSchema, at pointer: JSONPointer) {
        switch schema.value {
        case .string(_, let string):
            if string.pattern != nil { report.ignored(keyword: "pattern", at: pointer) }
            if string.maxLength != nil { report.ignored(keyword: "maxLength", at: pointer) }
            if string.minLength > 0 { report.ignored(keyword: "minLength", at: pointer) }
        case .number(_, let numeric):
            noteBounds(minimum: numeric.minimum != nil, maximum: numeric.maximum != nil, multipleOf: numeric.multipleOf != nil, at: pointer)
        case .integer(_, let integer):
            noteBounds(minimum: integer.minimum != nil, maximum: integer.maximum != nil, multipleOf: integer.multipleOf != nil, at: pointer)
        case .array(_, let array):
            if array.minItems > 0 { report.ignored(keyword: "minItems", at: pointer) }
            if array.maxItems != nil { report.ignored(keyword: "maxItems", at: pointer) }
            if array.uniqueItems { report.ignored(keyword: "uniqueItems", at: pointer) }
            if array.prefixItems != nil { report.ignored(keyword: "prefixItems", at: pointer) }
        case .object(_, let object):
            if !object.patternProperties.isEmpty { report.ignored(keyword: "patternProperties", at: pointer) }
            if object.maxProperties != nil { report.ignored(keyword: "maxProperties", at: pointer) }
            if object.minProperties > object.requiredProperties.count { report.ignored(keyword: "minProperties", at: pointer) }
        default:
            break
        }
    }

    mutating func noteBounds(minimum: Bool, maximum: Bool, multipleOf: Bool, at pointer: JSONPointer) {
        if minimum { report.ignored(keyword: "minimum", at: pointer) }
        if maximum { report.ignored(keyword: "maximum", at: pointer) }
        if multipleOf { report.ignored(keyword: "multipleOf", at: pointer) }
    }
}
