import Foundation

extension SwiftLiteral {
    /// A JSON value as an `APIRuntime.JSONValue` literal: `"2"`, `true`, `3`, `2.5`, `.null`,
    /// `["a", 1]`, `["key": "value"]` (keys sorted).
    static func jsonValue(_ json: String) -> String {
        guard let value = try? JSONDecoder().decode(JSONLiteral.self, from: Data(json.utf8)) else { return ".null" }
        return value.swift
    }
}

/// A JSON value read only to be written back as Swift.
private enum JSONLiteral: Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONLiteral])
    case object([String: JSONLiteral])

    init(from decoder: any Decoder) throws {
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
        } else if let value = try? container.decode([JSONLiteral].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONLiteral].self))
        }
    }

    var swift: String {
        switch self {
        case .null: ".null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .number(let value): "\(value)"
        case .string(let value): SwiftLiteral.string(value)
        case .array(let values): "[" + values.map(\.swift).joined(separator: ", ") + "]"
        case .object(let members) where members.isEmpty: "[:]"
        case .object(let members):
            "[" + members.keys.sorted().map { SwiftLiteral.string($0) + ": " + members[$0]!.swift }.joined(separator: ", ") + "]"
        }
    }
}
