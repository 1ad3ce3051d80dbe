import Foundation

/// A JSON value as parsed, for the generator's own reading of JSON: samples written as Swift,
/// and replies checked against the manifest's types (`apigen verify`).
public indirect enum JSONTree: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    /// An integer that fits in `Int64`.
    case integer(Int64)
    /// A number with a fraction or an exponent, or an integer too large for `Int64`.
    case number(Double)
    case string(String)
    case array([JSONTree])
    /// An object; its members' order is not kept.
    case object([String: JSONTree])

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
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    /// Parses JSON text; nil when it is not JSON, or nests deeper than `maximumDepth` arrays and
    /// objects: the reading recurses once a level, and a thread of Swift's cooperative pool may
    /// have a small stack (512 KB on Apple platforms).
    public static func parse(_ data: Data) -> JSONTree? {
        guard nestingDepth(of: data) <= maximumDepth else { return nil }
        return try? JSONDecoder().decode(JSONTree.self, from: data)
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

    /// The value as JSON text, object members in key order.
    public var json: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .number(let value): value.isFinite ? "\(value)" : "null"
        case .string(let value): Self.quoted(value)
        case .array(let items): "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let members): "{" + members.keys.sorted().map { Self.quoted($0) + ":" + members[$0]!.json }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string, quoted and escaped.
    public static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
