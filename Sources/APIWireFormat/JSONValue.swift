import Foundation

/// Any JSON value: an envelope whose payload is typed only later, a model's additional
/// properties, a manifest's example or sample, a reply a contract check reads.
public indirect enum JSONValue: Sendable, Hashable, Codable {
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

    /// Parses JSON text; nil when it is not JSON, or nests deeper than `maximumDepth` arrays and
    /// objects: the reading recurses once a level, and a thread of Swift's cooperative pool may
    /// have a small stack (512 KB on Apple platforms).
    public static func parse(_ data: Data) -> JSONValue? {
        guard nestingDepth(of: data) <= maximumDepth else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The deepest nesting `parse` reads.
    public static let maximumDepth = 128

    /// How deeply the arrays and objects of JSON text nest, found without recursion; brackets
    /// inside strings do not count.
    public static func nestingDepth(of data: Data) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// The value as JSON text, object members in key order, slashes unescaped; a number that is
    /// not finite as `null`.
    public var json: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        // As JSONEncoder writes numbers, `1` for 1.0 among them.
        case .number(let value): value.isFinite ? (try? Self.stringEncoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null" : "null"
        case .string(let value): Self.quoted(value)
        case .array(let items): "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let members): "{" + members.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    /// `json` as bytes.
    public var data: Data { Data(json.utf8) }

    /// `text` as a JSON string, quoted and escaped, as JSONEncoder writes it.
    public static func quoted(_ text: String) -> String {
        (try? stringEncoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    /// Writes strings and numbers; its settings never change, so it is safe from many threads.
    private static let stringEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }()

    /// The value as text in a URL or header: a string as it is, a number's digits, a Bool's word;
    /// nil for null, arrays and objects.
    public var text: String? {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): value ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// What kind of value it is, for messages: "a string", "null".
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a Bool"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
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
