/// The keyed container a generated model's `init(from:)` reads its fields from:
///
/// ```swift
/// let fields = try FieldReader(decoder)
/// try self.init(id: fields.int("id"), email: fields.stringIfPresent("email_address"))
/// ```
///
/// A concrete wrapper around `KeyedDecodingContainer<FieldKey>`: called on the generic container,
/// every model made the compiler instantiate the container's type and size its storage at run
/// time, in each `init(from:)`; through this type the same lines compile to a seventh fewer
/// instructions for a file of models (docs/ARCHITECTURE.md).
///
/// Generated code reads through the named methods (`int`, `string`, `value`, and their
/// `…IfPresent` forms), one name each rather than overloads of `decode`: the type checker then has
/// one candidate a call instead of six (docs/ARCHITECTURE.md). The scalar ones keep the
/// container's typed fast paths. `decode(_:forKey:)` and `decodeIfPresent(_:forKey:)`, Codable's
/// own spelling, are there for custom templates.
public struct FieldReader {
    private let container: KeyedDecodingContainer<FieldKey>

    /// Fails unless the value is a keyed container (a JSON object).
    public init(_ decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: FieldKey.self)
    }

    public func string(_ key: String) throws -> String { try container.decode(String.self, forKey: FieldKey(stringValue: key)) }
    public func int(_ key: String) throws -> Int { try container.decode(Int.self, forKey: FieldKey(stringValue: key)) }
    public func int64(_ key: String) throws -> Int64 { try container.decode(Int64.self, forKey: FieldKey(stringValue: key)) }
    public func double(_ key: String) throws -> Double { try container.decode(Double.self, forKey: FieldKey(stringValue: key)) }
    public func bool(_ key: String) throws -> Bool { try container.decode(Bool.self, forKey: FieldKey(stringValue: key)) }
    public func value<T: Decodable>(_ type: T.Type, _ key: String) throws -> T { try container.decode(type, forKey: FieldKey(stringValue: key)) }

    /// Nil when the key is absent or its value is `null`.
    public func stringIfPresent(_ key: String) throws -> String? { try container.decodeIfPresent(String.self, forKey: FieldKey(stringValue: key)) }
    public func intIfPresent(_ key: String) throws -> Int? { try container.decodeIfPresent(Int.self, forKey: FieldKey(stringValue: key)) }
    public func int64IfPresent(_ key: String) throws -> Int64? { try container.decodeIfPresent(Int64.self, forKey: FieldKey(stringValue: key)) }
    public func doubleIfPresent(_ key: String) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: FieldKey(stringValue: key)) }
    public func boolIfPresent(_ key: String) throws -> Bool? { try container.decodeIfPresent(Bool.self, forKey: FieldKey(stringValue: key)) }
    public func valueIfPresent<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? { try container.decodeIfPresent(type, forKey: FieldKey(stringValue: key)) }

    public func decode(_ type: String.Type, forKey key: FieldKey) throws -> String { try container.decode(type, forKey: key) }
    public func decode(_ type: Int.Type, forKey key: FieldKey) throws -> Int { try container.decode(type, forKey: key) }
    public func decode(_ type: Int64.Type, forKey key: FieldKey) throws -> Int64 { try container.decode(type, forKey: key) }
    public func decode(_ type: Double.Type, forKey key: FieldKey) throws -> Double { try container.decode(type, forKey: key) }
    public func decode(_ type: Bool.Type, forKey key: FieldKey) throws -> Bool { try container.decode(type, forKey: key) }
    public func decode<T: Decodable>(_ type: T.Type, forKey key: FieldKey) throws -> T { try container.decode(type, forKey: key) }

    public func decodeIfPresent(_ type: String.Type, forKey key: FieldKey) throws -> String? { try container.decodeIfPresent(type, forKey: key) }
    public func decodeIfPresent(_ type: Int.Type, forKey key: FieldKey) throws -> Int? { try container.decodeIfPresent(type, forKey: key) }
    public func decodeIfPresent(_ type: Int64.Type, forKey key: FieldKey) throws -> Int64? { try container.decodeIfPresent(type, forKey: key) }
    public func decodeIfPresent(_ type: Double.Type, forKey key: FieldKey) throws -> Double? { try container.decodeIfPresent(type, forKey: key) }
    public func decodeIfPresent(_ type: Bool.Type, forKey key: FieldKey) throws -> Bool? { try container.decodeIfPresent(type, forKey: key) }
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: FieldKey) throws -> T? { try container.decodeIfPresent(type, forKey: key) }
}

/// The keyed container a generated model's `encode(to:)` writes its fields to; `FieldReader`'s
/// counterpart, for the same reasons, with the same names: `try fields.int(id, "id")`.
public struct FieldWriter {
    private var container: KeyedEncodingContainer<FieldKey>

    public init(_ encoder: any Encoder) {
        container = encoder.container(keyedBy: FieldKey.self)
    }

    public mutating func string(_ value: String, _ key: String) throws { try container.encode(value, forKey: FieldKey(stringValue: key)) }
    public mutating func int(_ value: Int, _ key: String) throws { try container.encode(value, forKey: FieldKey(stringValue: key)) }
    public mutating func int64(_ value: Int64, _ key: String) throws { try container.encode(value, forKey: FieldKey(stringValue: key)) }
    public mutating func double(_ value: Double, _ key: String) throws { try container.encode(value, forKey: FieldKey(stringValue: key)) }
    public mutating func bool(_ value: Bool, _ key: String) throws { try container.encode(value, forKey: FieldKey(stringValue: key)) }
    public mutating func value<T: Encodable>(_ value: T, _ key: String) throws { try container.encode(value, forKey: FieldKey(stringValue: key)) }

    /// Leaves the key out when the value is nil.
    public mutating func stringIfPresent(_ value: String?, _ key: String) throws { try container.encodeIfPresent(value, forKey: FieldKey(stringValue: key)) }
    public mutating func intIfPresent(_ value: Int?, _ key: String) throws { try container.encodeIfPresent(value, forKey: FieldKey(stringValue: key)) }
    public mutating func int64IfPresent(_ value: Int64?, _ key: String) throws { try container.encodeIfPresent(value, forKey: FieldKey(stringValue: key)) }
    public mutating func doubleIfPresent(_ value: Double?, _ key: String) throws { try container.encodeIfPresent(value, forKey: FieldKey(stringValue: key)) }
    public mutating func boolIfPresent(_ value: Bool?, _ key: String) throws { try container.encodeIfPresent(value, forKey: FieldKey(stringValue: key)) }
    public mutating func valueIfPresent<T: Encodable>(_ value: T?, _ key: String) throws { try container.encodeIfPresent(value, forKey: FieldKey(stringValue: key)) }

    public mutating func encode(_ value: String, forKey key: FieldKey) throws { try container.encode(value, forKey: key) }
    public mutating func encode(_ value: Int, forKey key: FieldKey) throws { try container.encode(value, forKey: key) }
    public mutating func encode(_ value: Int64, forKey key: FieldKey) throws { try container.encode(value, forKey: key) }
    public mutating func encode(_ value: Double, forKey key: FieldKey) throws { try container.encode(value, forKey: key) }
    public mutating func encode(_ value: Bool, forKey key: FieldKey) throws { try container.encode(value, forKey: key) }
    public mutating func encode<T: Encodable>(_ value: T, forKey key: FieldKey) throws { try container.encode(value, forKey: key) }

    public mutating func encodeIfPresent(_ value: String?, forKey key: FieldKey) throws { try container.encodeIfPresent(value, forKey: key) }
    public mutating func encodeIfPresent(_ value: Int?, forKey key: FieldKey) throws { try container.encodeIfPresent(value, forKey: key) }
    public mutating func encodeIfPresent(_ value: Int64?, forKey key: FieldKey) throws { try container.encodeIfPresent(value, forKey: key) }
    public mutating func encodeIfPresent(_ value: Double?, forKey key: FieldKey) throws { try container.encodeIfPresent(value, forKey: key) }
    public mutating func encodeIfPresent(_ value: Bool?, forKey key: FieldKey) throws { try container.encodeIfPresent(value, forKey: key) }
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: FieldKey) throws { try container.encodeIfPresent(value, forKey: key) }
}
