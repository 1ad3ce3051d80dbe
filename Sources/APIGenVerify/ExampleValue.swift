import APIGenKit
import APIManifest
import APIRuntime
import Foundation

/// A parameter's `example:` as a value of the Swift type its generated API takes, so that the
/// runtime writes it as it writes the app's: a `Double` example `1` goes as `1.0` in a query, a
/// `UUID` in capitals, a date in the runtime's ISO 8601 text, a model with its fields typed.
///
/// The check decides only which Swift value an example is (which union alternative, which
/// default fills a gap); its text and JSON come from the runtime's own conformances
/// (`ParameterValue`, the `Encodable` of `Double`, `Date`, `UUID`…) encoded by the request
/// builder.
struct ExampleValue: Encodable, Sendable {
    let value: JSONValue
    let type: TypeExpression
    let models: ExampleModels
    var dateFormat: DateFormat = .iso8601
    /// The number as the manifest writes it, for a `Decimal`, whose digits a `Double` would round
    /// away; nil to read `value`.
    var numberText: String? = nil

    /// The example (or default) `json` of a value of `type`; nil when it is not JSON.
    init?(json: String, type: TypeExpression, models: ExampleModels, dateFormat: DateFormat = .iso8601) {
        guard let value = JSONValue.parse(Data(json.utf8)) else { return nil }
        self.init(value: value, type: type, models: models, dateFormat: dateFormat, numberText: json.trimmingCharacters(in: .whitespaces))
    }

    init(value: JSONValue, type: TypeExpression, models: ExampleModels, dateFormat: DateFormat = .iso8601, numberText: String? = nil) {
        self.value = value
        self.type = type
        self.models = models
        self.dateFormat = dateFormat
        self.numberText = numberText
    }

    /// The example's text in a path, query or header, as `ParameterValue` gives it; nil when the
    /// example is not one value of a type that travels as text.
    var parameterText: String? {
        if case .optional(let wrapped) = type {
            return value == .null ? nil : ExampleValue(value: value, type: wrapped, models: models, dateFormat: dateFormat, numberText: numberText).parameterText
        }
        guard case .named(let name) = type else { return nil }
        if let model = models[name] {
            guard case .enumeration = model.shape else { return nil }
            return value.text
        }
        if name == "Date", dateFormat != .iso8601, let number = value.number {
            return String(dateFormat == .unixSeconds ? UnixTime.seconds(UnixTime.date(seconds: number)) : UnixTime.milliseconds(UnixTime.date(milliseconds: number)))
        }
        return Self.scalar(name, value, numberText: numberText)?.parameterText
    }

    /// One text per element of a list example (`?tag=a&tag=b`); the one text of a single value.
    var parameterTexts: [String]? {
        guard case .array(let element) = type.unwrapped else { return parameterText.map { [$0] } }
        guard case .array(let items) = value else { return value == .null ? [] : nil }
        var texts: [String] = []
        for item in items {
            guard let text = ExampleValue(value: item, type: element, models: models, dateFormat: dateFormat).parameterText else { return nil }
            texts.append(text)
        }
        return texts
    }

    func encode(to encoder: any Encoder) throws {
        switch type {
        case .optional(let wrapped):
            guard value != .null else {
                var container = encoder.singleValueContainer()
                return try container.encodeNil()
            }
            try ExampleValue(value: value, type: wrapped, models: models, dateFormat: dateFormat, numberText: numberText).encode(to: encoder)
        case .array(let element):
            guard case .array(let items) = value else { return try value.encode(to: encoder) }
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(typed(item, element)) }
        case .dictionary(let element):
            guard case .object(let members) = value else { return try value.encode(to: encoder) }
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, member) in members { try container.encode(typed(member, element), forKey: MemberKey(key)) }
        case .named(let name):
            if let model = models[name] {
                try encode(model, to: encoder)
            } else if name == "Date", dateFormat != .iso8601, let number = value.number {
                var container = encoder.singleValueContainer()
                try container.encode(dateFormat == .unixSeconds ? UnixTime.seconds(UnixTime.date(seconds: number)) : UnixTime.milliseconds(UnixTime.date(milliseconds: number)))
            } else if let scalar = Self.scalar(name, value, numberText: numberText) {
                try scalar.encode(to: encoder)
            } else {
                // `JSON`, and types of the app's own (`swift:`): the example as it is written.
                try value.encode(to: encoder)
            }
        }
    }

    private func typed(_ value: JSONValue, _ type: TypeExpression, dateFormat: DateFormat = .iso8601) -> ExampleValue {
        ExampleValue(value: value, type: type, models: models, dateFormat: dateFormat)
    }

    /// A model as its generated `Codable` writes it: each field its type, an absent optional left
    /// out, an enum as its raw value, a union as the alternative it holds.
    private func encode(_ model: ModelDescription, to encoder: any Encoder) throws {
        switch model.shape {
        case .enumeration:
            // A raw value, text or an integer, is written as the example gives it.
            try value.encode(to: encoder)
        case .structure(let fields):
            guard case .object(let members) = value else { return try value.encode(to: encoder) }
            var container = encoder.container(keyedBy: MemberKey.self)
            var declared: Set<String> = []
            for field in fields {
                declared.insert(field.jsonKey)
                let type = (field.type.expression ?? .named(field.type.spelling)).unwrapped
                if let member = members[field.jsonKey], member != .null {
                    try container.encode(typed(member, type, dateFormat: field.dateFormat), forKey: MemberKey(field.jsonKey))
                } else if let json = field.defaultJSON, let fallback = ExampleValue(json: json, type: type, models: models, dateFormat: field.dateFormat) {
                    // The generated initializer's default argument, which the model encodes.
                    try container.encode(fallback, forKey: MemberKey(field.jsonKey))
                }
            }
            if model.keepsAdditionalProperties {
                for (key, member) in members where !declared.contains(key) { try container.encode(member, forKey: MemberKey(key)) }
            }
        case .union(let union):
            let conformance = JSONConformance(models: models.all)
            let alternative = union.alternatives.first { alternative in
                if let discriminator = union.discriminator {
                    return value.member(discriminator)?.text == alternative.discriminatorValue
                }
                let type = alternative.type.expression ?? .named(alternative.type.spelling)
                return !conformance.problems(in: value, as: type).contains(where: \.breaksDecoding)
            }
            guard let alternative, let type = alternative.type.expression else { return try value.encode(to: encoder) }
            try typed(value, type).encode(to: encoder)
            if let discriminator = union.discriminator, let name = alternative.discriminatorValue {
                var container = encoder.container(keyedBy: MemberKey.self)
                try container.encode(name, forKey: MemberKey(discriminator))
            }
        }
    }

    /// The example as the runtime's value of the scalar type `name`; nil when it is not one.
    static func scalar(_ name: String, _ value: JSONValue, numberText: String? = nil) -> (any ParameterValue & Encodable)? {
        if name == "Decimal", let text = numberText, let exact = Decimal(string: text), exact.description != "NaN" { return exact }
        return switch (name, value) {
        case ("String", .string(let text)): text
        case ("Bool", .bool(let flag)): flag
        case ("Int", .integer(let number)): Int(exactly: number)
        case ("Int32", .integer(let number)): Int32(exactly: number)
        case ("Int64", .integer(let number)): number
        case ("Double", _): value.number
        case ("Float", _): value.number.map(Float.init)
        case ("Decimal", .integer(let number)): Decimal(number)
        case ("Decimal", .number(let number)): Decimal(string: String(number))
        case ("Date", .string(let text)): JSONCoding.date(from: text)
        case ("CalendarDate", .string(let text)): CalendarDate(text)
        case ("UUID", .string(let text)): UUID(uuidString: text)
        case ("URL", .string(let text)): URL(string: text)
        case ("Data", .string(let text)): Data(base64Encoded: text)
        default: nil
        }
    }
}

/// The workspace's models by manifest name, for typing examples.
struct ExampleModels: Sendable {
    let all: [ModelDescription]
    private let byName: [String: ModelDescription]

    init(_ models: [ModelDescription]) {
        all = models
        byName = Dictionary(models.map { ($0.manifestName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    subscript(name: String) -> ModelDescription? { byName[name] }
}

/// A JSON object's member name as a coding key.
private struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private extension JSONValue {
    var number: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .number(let number): number
        default: nil
        }
    }

    func member(_ name: String) -> JSONValue? {
        if case .object(let members) = self { return members[name] }
        return nil
    }
}
