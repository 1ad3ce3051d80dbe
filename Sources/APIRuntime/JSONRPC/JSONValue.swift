import Foundation

/// Any JSON value, for reading envelopes whose payload is typed only later.
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Integers keep their exact value; other numbers are doubles.
    case integer(Int64)
    /// A number with a fraction or an exponent, or an integer too large for `Int64`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; its members' order is not kept.
    case object([String: JSONValue])

    /// Reads any JSON value; an integer that fits in `Int64` stays exact.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes the value as the JSON it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses JSON text; nil when it is not JSON.
    public static func parse(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value as JSON text, keys sorted.
    public var data: Data {
        // Encoding a JSONValue cannot fail: every case is representable.
        (try? JSONCoding.encoder.encode(self)) ?? Data("null".utf8)
    }

    /// The member named `key` of an object; nil for other values and absent members.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// `.string(value)`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `.integer(value)`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// `.number(value)`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `.bool(value)`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.array(elements)`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// `.object(elements)`; a key given twice keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
