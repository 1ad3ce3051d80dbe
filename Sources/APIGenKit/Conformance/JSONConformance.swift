import APIWireFormat
import APIManifest
import Foundation

/// A way a JSON value differs from the type its manifest declares.
public struct ConformanceProblem: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// The value is not of the declared type: decoding it fails.
        case typeMismatch
        /// A field the model requires is absent or null: decoding it fails.
        case missingField
        /// A member the model does not declare: decoding drops it.
        case extraField
        /// An enum value (or a union's discriminator value) the manifest does not list: decoding
        /// fails for a frozen enum, and gives `unknown` otherwise.
        case unknownEnumValue
    }

    public var kind: Kind
    /// Where in the value, as a JSONPath: `$.items[0].status`.
    public var path: String
    public var message: String
    /// The manifest line it concerns (the field's, or the model's); nil when it is the API's own
    /// type, which its caller locates.
    public var location: SourceLocation?
    /// Whether the generated client fails to decode the value because of it.
    public var breaksDecoding: Bool

    public init(kind: Kind, path: String, message: String, location: SourceLocation?, breaksDecoding: Bool) {
        self.kind = kind
        self.path = path
        self.message = message
        self.location = location
        self.breaksDecoding = breaksDecoding
    }
}

/// Checks JSON values against the types a workspace declares, as the generated `Decodable`
/// conformances read them.
public struct JSONConformance: Sendable {
    private let models: [String: ModelDescription]

    /// Values nested deeper than this are reported rather than walked.
    static let maximumDepth = 128

    public init(models: [ModelDescription]) {
        self.models = Dictionary(models.map { ($0.manifestName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The ways `value` differs from `type`, in the order met.
    public func problems(in value: JSONValue, as type: TypeExpression, dateFormat: DateFormat = .iso8601) -> [ConformanceProblem] {
        var walk = Walk(models: models)
        walk.check(value, as: type, at: "$", dateFormat: dateFormat, location: nil, depth: 0)
        return walk.problems
    }

    private struct Walk {
        let models: [String: ModelDescription]
        var problems: [ConformanceProblem] = []

        mutating func report(_ kind: ConformanceProblem.Kind, _ path: String, _ message: String, at location: SourceLocation?, breaks: Bool = true) {
            problems.append(ConformanceProblem(kind: kind, path: path, message: message, location: location, breaksDecoding: breaks))
        }

        mutating func mismatch(_ value: JSONValue, expected: String, at path: String, location: SourceLocation?) {
            report(.typeMismatch, path, "expected \(expected), found \(value.kindName)", at: location)
        }

        mutating func check(_ value: JSONValue, as type: TypeExpression, at path: String, dateFormat: DateFormat, location: SourceLocation?, depth: Int) {
            guard depth < JSONConformance.maximumDepth else {
                return report(.typeMismatch, path, "nested deeper than \(JSONConformance.maximumDepth) levels", at: location)
            }
            switch type {
            case .optional(let wrapped):
                if value != .null { check(value, as: wrapped, at: path, dateFormat: dateFormat, location: location, depth: depth) }
            case .array(let element):
                guard case .array(let items) = value else { return mismatch(value, expected: "an array", at: path, location: location) }
                for (index, item) in items.enumerated() {
                    check(item, as: element, at: "\(path)[\(index)]", dateFormat: dateFormat, location: location, depth: depth + 1)
                }
            case .dictionary(let element):
                guard case .object(let members) = value else { return mismatch(value, expected: "an object", at: path, location: location) }
                for key in members.keys.sorted() {
                    check(members[key]!, as: element, at: Self.member(key, of: path), dateFormat: dateFormat, location: location, depth: depth + 1)
                }
            case .named(let name):
                if let model = models[name] {
                    checkModel(value, model, at: path, location: location, depth: depth)
                } else {
                    checkScalar(value, name, at: path, dateFormat: dateFormat, location: location)
                }
            }
        }

        mutating func checkScalar(_ value: JSONValue, _ name: String, at path: String, dateFormat: DateFormat, location: SourceLocation?) {
            switch (name, value) {
            case ("JSON", _), ("String", .string), ("Bool", .bool):
                return
            case ("Int", .integer), ("Int64", .integer):
                return
            case ("Int32", .integer(let number)):
                if Int32(exactly: number) == nil { report(.typeMismatch, path, "\(number) is out of Int32's range", at: location) }
            case ("Double", .integer), ("Double", .number), ("Float", .integer), ("Float", .number), ("Decimal", .integer), ("Decimal", .number):
                return
            case ("Date", .string(let text)) where dateFormat == .iso8601:
                if Self.isoDate(text) == nil { report(.typeMismatch, path, "'\(text)' is not an ISO 8601 date and time", at: location) }
            case ("Date", .integer), ("Date", .number):
                if dateFormat == .iso8601 { mismatch(value, expected: "an ISO 8601 date (a string)", at: path, location: location) }
            case ("CalendarDate", .string(let text)):
                if !Self.isCalendarDate(text) { report(.typeMismatch, path, "'\(text)' is not a date (YYYY-MM-DD)", at: location) }
            case ("UUID", .string(let text)):
                if UUID(uuidString: text) == nil { report(.typeMismatch, path, "'\(text)' is not a UUID", at: location) }
            case ("URL", .string(let text)):
                if URL(string: text) == nil { report(.typeMismatch, path, "'\(text)' is not a URL", at: location) }
            case ("Data", .string(let text)):
                if Data(base64Encoded: text) == nil { report(.typeMismatch, path, "'\(text.prefix(40))' is not base64", at: location) }
            default:
                let expected = switch name {
                case "Int", "Int32", "Int64": "an integer (\(name))"
                case "Double", "Float", "Decimal": "a number (\(name))"
                case "Bool": "true or false"
                case "Date": dateFormat == .iso8601 ? "an ISO 8601 date (a string)" : "a number (\(dateFormat.rawValue))"
                case "String", "CalendarDate", "UUID", "URL", "Data": "a string (\(name))"
                default: name
                }
                // A type the manifest names but does not declare here (`swift:` types) is not checked.
                if TypeResolver.scalars[name] != nil { mismatch(value, expected: expected, at: path, location: location) }
            }
        }

        mutating func checkModel(_ value: JSONValue, _ model: ModelDescription, at path: String, location: SourceLocation?, depth: Int) {
            switch model.shape {
            case .structure(let fields):
                guard case .object(let members) = value else {
                    return mismatch(value, expected: "an object (\(model.manifestName))", at: path, location: location ?? model.declaredAt)
                }
                for field in fields {
                    let fieldPath = Self.member(field.jsonKey, of: path)
                    let at = field.declaredAt ?? model.declaredAt
                    let expression = field.type.expression ?? .named(field.type.spelling)
                    guard let member = members[field.jsonKey], member != .null else {
                        if !field.type.isOptional && field.defaultLiteral == nil {
                            let found = members[field.jsonKey] == nil ? "absent" : "null"
                            report(.missingField, fieldPath, "required field '\(field.jsonKey)' of '\(model.manifestName)' is \(found)", at: at)
                        }
                        continue
                    }
                    check(member, as: expression, at: fieldPath, dateFormat: field.dateFormat, location: at, depth: depth + 1)
                }
                guard !model.keepsAdditionalProperties else { return }
                let declared = Set(fields.map(\.jsonKey))
                for key in members.keys.sorted() where !declared.contains(key) {
                    report(.extraField, Self.member(key, of: path), "'\(model.manifestName)' does not declare field '\(key)' (\(members[key]!.kindName))", at: model.declaredAt, breaks: false)
                }
            case .enumeration(let enumeration):
                let raw: String
                switch (enumeration.rawType, value) {
                case ("String", .string(let text)): raw = text
                case ("String", _): return mismatch(value, expected: "a string (\(model.manifestName))", at: path, location: location ?? model.declaredAt)
                case (_, .integer(let number)): raw = String(number)
                default: return mismatch(value, expected: "an integer (\(model.manifestName))", at: path, location: location ?? model.declaredAt)
                }
                guard !enumeration.cases.contains(where: { $0.rawValue == raw }) else { return }
                let effect = enumeration.isFrozen ? "it is frozen, so decoding fails" : "it decodes as .\(enumeration.unknownCase)"
                report(.unknownEnumValue, path, "'\(raw)' is not a value of '\(model.manifestName)': \(effect)", at: model.declaredAt, breaks: enumeration.isFrozen)
            case .union(let union):
                checkUnion(value, model, union, at: path, location: location, depth: depth)
            }
        }

        mutating func checkUnion(_ value: JSONValue, _ model: ModelDescription, _ union: UnionDescription, at path: String, location: SourceLocation?, depth: Int) {
            let expression = { (alternative: UnionDescription.Alternative) in alternative.type.expression ?? .named(alternative.type.spelling) }
            if let discriminator = union.discriminator {
                guard case .object(let members) = value else {
                    return mismatch(value, expected: "an object (\(model.manifestName))", at: path, location: location ?? model.declaredAt)
                }
                guard case .string(let name)? = members[discriminator] else {
                    return report(.missingField, Self.member(discriminator, of: path), "'\(model.manifestName)' needs its discriminator '\(discriminator)', a string", at: model.declaredAt)
                }
                guard let alternative = union.alternatives.first(where: { $0.discriminatorValue == name }) else {
                    let known = union.alternatives.compactMap(\.discriminatorValue).joined(separator: ", ")
                    return report(.unknownEnumValue, Self.member(discriminator, of: path), "'\(name)' names no alternative of '\(model.manifestName)' (\(known))", at: model.declaredAt)
                }
                // The discriminator is a member of every alternative's JSON, declared as a field or not.
                var trial = Walk(models: models)
                trial.check(value, as: expression(alternative), at: path, dateFormat: .iso8601, location: location, depth: depth + 1)
                let discriminatorPath = Self.member(discriminator, of: path)
                problems += trial.problems.filter { $0.kind != .extraField || $0.path != discriminatorPath }
                return
            }
            // Without a discriminator the first alternative that decodes is taken, as the generated code does.
            for alternative in union.alternatives {
                var trial = Walk(models: models)
                trial.check(value, as: expression(alternative), at: path, dateFormat: .iso8601, location: location, depth: depth + 1)
                if !trial.problems.contains(where: \.breaksDecoding) {
                    problems += trial.problems
                    return
                }
            }
            let names = union.alternatives.map { expression($0).description }.joined(separator: ", ")
            report(.typeMismatch, path, "\(value.kindName) that is none of '\(model.manifestName)''s alternatives: \(names)", at: location ?? model.declaredAt)
        }

        static func member(_ key: String, of path: String) -> String {
            key.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*/) != nil ? "\(path).\(key)" : "\(path)['\(key)']"
        }

        /// ISO 8601 with or without fractional seconds, read as the runtime's `JSONCoding` reads it.
        static func isoDate(_ text: String) -> Date? {
            if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
            return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
        }

        /// `2024-05-01`, a day of the Gregorian calendar from the year 1 to 9999, as the runtime's
        /// `CalendarDate` reads it.
        static func isCalendarDate(_ text: String) -> Bool {
            guard text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil else { return false }
            let parts = text.split(separator: "-").compactMap { Int($0) }
            let components = DateComponents(year: parts[0], month: parts[1], day: parts[2])
            return (1...9999).contains(parts[0]) && components.isValidDate(in: Calendar(identifier: .gregorian))
        }
    }
}
