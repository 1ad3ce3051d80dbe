import APIWireFormat
import Foundation

extension SwiftLiteral {
    /// A JSON value as an `APIRuntime.JSONValue` literal: `"2"`, `true`, `3`, `2.5`, `.null`,
    /// `["a", 1]`, `["key": "value"]` (keys sorted).
    static func jsonValue(_ json: String) -> String {
        // Manifest JSON, which the YAML reader has already bounded in depth.
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else { return ".null" }
        return value.swift
    }
}

extension JSONValue {
    /// The value as an `APIRuntime.JSONValue` literal.
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
