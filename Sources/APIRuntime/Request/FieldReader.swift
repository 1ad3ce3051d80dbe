/// The keyed container a generated model's `init(from:)` reads its fields from.
///
/// A concrete wrapper around `KeyedDecodingContainer<FieldKey>`: called on the generic container,
/// every model made the compiler instantiate the container's type and size its storage at run
/// time, in each `init(from:)`; through this type the same lines compile to a seventh fewer
/// instructions for a file of models (BENCHMARKS.md §2, session 9). The scalar overloads keep the
/// container's typed fast paths (`decode(Int.self, forKey:)`), as the written-out calls had them.
public struct FieldReader {
    private let container: KeyedDecodingContainer<FieldKey>

    /// Fails unless the value is a keyed container (a JSON object).
    public init(_ decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: FieldKey.self)
    }

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
/// counterpart, for the same reason.
public struct FieldWriter {
    private var container: KeyedEncodingContainer<FieldKey>

    public init(_ encoder: any Encoder) {
        container = encoder.container(keyedBy: FieldKey.self)
    }

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
