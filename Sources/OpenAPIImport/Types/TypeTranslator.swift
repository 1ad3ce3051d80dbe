import APIGenKit
import Foundation
import OpenAPIKit

/// JSON Schemas to manifest types. A component schema that is an object, an enum or a union is
/// declared under its own name; any other (a string with a format, a list, a map) is written
/// where it is used. Inline objects, enums and unions are declared too, named after where they
/// are (`Pet` + `status` → `PetStatus`).
///
/// Components are translated one after another in the document's order, and a reference to one
/// is spelled by its name without translating it there: a chain of thousands of schemas, each
/// referring to the next, costs no deeper a stack than one. A component that turns out to have no
/// manifest type is spelled `JSON` afterwards (`spellingUndeclared`).
struct TypeTranslator {
    /// A type as a manifest spells it, and whether the schema also allows null.
    struct Translated {
        var spelling: String
        var isNullable = false

        static let json = Translated(spelling: "JSON")
    }

    let schemas: OpenAPIKit.OpenAPI.ComponentDictionary<JSONSchema>
    var report: ImportDiagnostics
    var types: [ImportedType] = []
    /// Where each declared type comes from, for the warnings of the recursion check.
    var origins: [String: JSONPointer] = [:]
    var fieldPointers: [String: [String: JSONPointer]] = [:]
    var names = NameBook()
    /// Component key → the name of the type declared for it.
    var declared: [String: String] = [:]
    /// Component keys whose translation is under way: a reference back to one is a cycle.
    private var resolving: Set<String> = []
    /// How many schemas deep the schema being translated is, counting those a reference to a
    /// schema written where it is used leads through.
    private var depth = 0
    /// The deepest nesting imported; deeper is an error at its pointer.
    static let nestingLimit = 64
    private var reportedNesting = false
    private var translatedComponents: Set<String> = []
    /// Types that turned out to have no manifest type: removed once the import is done.
    var undeclared: Set<String> = []

    init(components: OpenAPIKit.OpenAPI.Components, report: ImportDiagnostics) {
        schemas = components.schemas
        self.report = report
    }

    /// Names every component that becomes a declaration, then translates them in document order.
    mutating func declareComponents() {
        for (key, schema) in schemas where Self.isDeclaration(schema) {
            declared[key.rawValue] = names.claim(Naming.typeName(key.rawValue))
        }
        for (key, _) in schemas where declared[key.rawValue] != nil {
            translateComponent(key.rawValue)
        }
    }

    /// Whether a schema becomes a type of its own rather than a spelling.
    static func isDeclaration(_ schema: JSONSchema) -> Bool {
        switch schema.value {
        case .object(_, let object):
            return !object.properties.isEmpty
        case .string, .integer, .fragment:
            return !(schema.allowedValues ?? []).isEmpty
        case .all(let parts, _):
            return !(parts.count == 1 && parts[0].isReference)
        case .one(let alternatives, _), .any(let alternatives, _):
            return alternatives.filter { !$0.isNull }.count > 1
        default:
            return false
        }
    }

    mutating func translateComponent(_ key: String) {
        guard let name = declared[key], !translatedComponents.contains(key), let schema = schemas[.init(stringLiteral: key)] else { return }
        translatedComponents.insert(key)
        resolving.insert(key)
        defer { resolving.remove(key) }
        declare(schema, named: name, at: JSONPointer(["components", "schemas", key]))
    }

    // MARK: Spellings

    /// The manifest spelling of a schema; objects, enums and unions are declared as `hint`.
    mutating func type(of schema: JSONSchema, at pointer: JSONPointer, hint: String) -> Translated {
        guard depth < Self.nestingLimit else {
            // Once: every sibling past the limit is past it for the same reason.
            if !reportedNesting {
                report.error("schemas nest more than \(Self.nestingLimit) levels deep here; apigen imports at most \(Self.nestingLimit)", at: pointer)
                reportedNesting = true
            }
            return .json
        }
        depth += 1
        defer { depth -= 1 }
        noteIgnoredKeywords(of: schema, at: pointer)
        let nullable = schema.nullable
        var translated: Translated
        switch schema.value {
        case .reference(let reference, _):
            translated = type(of: reference, at: pointer)
        case .boolean:
            translated = Translated(spelling: "Bool")
        case .integer(let core, _):
            if !(core.allowedValues ?? []).isEmpty {
                translated = Translated(spelling: declareNew(schema, hint: hint, at: pointer))
            } else {
                translated = Translated(spelling: ["int32": "Int32", "int64": "Int64"][core.format.rawValue] ?? "Int")
            }
        case .number(let core, _):
            translated = Translated(spelling: ["float": "Float", "decimal": "Decimal"][core.format.rawValue] ?? "Double")
        case .string(let core, let string):
            if !(core.allowedValues ?? []).isEmpty {
                translated = Translated(spelling: declareNew(schema, hint: hint, at: pointer))
            } else if string.contentEncoding?.rawValue == "base64" {
                translated = Translated(spelling: "Data")
            } else if Self.isDecimalText(format: core.format.rawValue, pattern: string.pattern) {
                report.warning("a decimal number written as text is imported as String: a manifest's Decimal travels as a JSON number; convert it where the app uses it (Decimal(string:))", at: pointer)
                translated = Translated(spelling: "String")
            } else {
                translated = Translated(spelling: Self.stringFormats[core.format.rawValue] ?? "String")
            }
        case .array(_, let array):
            if let items = array.items {
                let element = type(of: items, at: pointer.appending("items"), hint: hint + "Item")
                translated = Translated(spelling: "[\(element.spelling)\(element.isNullable ? "?" : "")]")
            } else {
                translated = Translated(spelling: "[JSON]")
            }
        case .object(_, let object):
            if object.properties.isEmpty {
                translated = Translated(spelling: "[String: \(dictionaryValue(object, at: pointer, hint: hint))]")
            } else {
                translated = Translated(spelling: declareNew(schema, hint: hint, at: pointer))
            }
        case .all(let parts, _):
            if parts.count == 1, parts[0].isReference {
                translated = type(of: parts[0], at: pointer.appending("allOf", "0"), hint: hint)
            } else {
                translated = Translated(spelling: declareNew(schema, hint: hint, at: pointer))
            }
        case .one(let alternatives, _), .any(let alternatives, _):
            let kept = alternatives.filter { !$0.isNull }
            if kept.count == 1 {
                let key = schema.value.isOneOf ? "oneOf" : "anyOf"
                let index = alternatives.firstIndex { !$0.isNull }!
                translated = type(of: kept[0], at: pointer.appending(key, String(index)), hint: hint)
                translated.isNullable = true
            } else if kept.isEmpty {
                translated = .json
            } else {
                translated = Translated(spelling: declareNew(schema, hint: hint, at: pointer))
                translated.isNullable = kept.count < alternatives.count
            }
        case .not:
            report.warning("'not' has no equivalent in a manifest; the value is imported as JSON", at: pointer)
            translated = .json
        case .fragment(let core):
            if !(core.allowedValues ?? []).isEmpty {
                translated = Translated(spelling: declareNew(schema, hint: hint, at: pointer))
            } else {
                translated = .json
            }
        case .null:
            translated = Translated(spelling: "JSON", isNullable: true)
        }
        translated.isNullable = translated.isNullable || nullable
        return translated
    }

    /// Whether a string schema holds a decimal number: `format: decimal`, or a pattern of digits
    /// with one decimal point, such as `^-?\d+(\.\d+)?$` (not a version's or an address's).
    static func isDecimalText(format: String, pattern: String?) -> Bool {
        if format == "decimal" { return true }
        guard let pattern, pattern.components(separatedBy: "\\.").count == 2 else { return false }
        let digits = pattern.replacingOccurrences(of: "\\d", with: "").replacingOccurrences(of: "0-9", with: "")
        return digits.count < pattern.count && !digits.contains { $0.isLetter }
    }

    static let stringFormats = [
        "date-time": "Date", "date": "CalendarDate", "uuid": "UUID", "uri": "URL", "url": "URL", "byte": "Data",
    ]

    private mutating func dictionaryValue(_ object: JSONSchema.ObjectContext, at pointer: JSONPointer, hint: String) -> String {
        guard case .b(let valueSchema) = object.additionalProperties else { return "JSON" }
        let value = type(of: valueSchema, at: pointer.appending("additionalProperties"), hint: hint + "Value")
        return value.spelling + (value.isNullable ? "?" : "")
    }

    private mutating func type(of reference: JSONReference<JSONSchema>, at pointer: JSONPointer) -> Translated {
        guard case .internal(let internalReference) = reference,
              case .component(let key) = internalReference,
              let schema = schemas[.init(stringLiteral: key)] else {
            report.warning("the reference '\(reference.absoluteString)' is not to a schema of this document's components; the value is imported as JSON", at: pointer)
            return .json
        }
        if let name = declared[key] {
            return Translated(spelling: name, isNullable: schema.nullable)
        }
        // A schema written where it is used: a cycle through such schemas has no spelling.
        guard !resolving.contains(key) else {
            report.warning("the schema '\(key)' refers back to itself through schemas that are not objects; the value is imported as JSON", at: pointer)
            return .json
        }
        resolving.insert(key)
        defer { resolving.remove(key) }
        return type(of: schema, at: JSONPointer(["components", "schemas", key]), hint: Naming.typeName(key))
    }
}

extension JSONSchema.Schema {
    var isOneOf: Bool {
        if case .one = self { return true }
        return false
    }
}

extension TypeTranslator {
    /// `spelling` with each type that turned out to have no manifest type replaced by `JSON`
    /// (`[Shape]` → `[JSON]`).
    func spellingUndeclared(_ spelling: String) -> String {
        guard !undeclared.isEmpty else { return spelling }
        return spelling.replacing(/[A-Za-z_][A-Za-z0-9_]*/) { match in
            undeclared.contains(String(match.output)) ? "JSON" : String(match.output)
        }
    }
}
