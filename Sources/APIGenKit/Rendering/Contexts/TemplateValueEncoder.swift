/// Turns a template context into the value templates read. A context is an `Encodable` struct
/// whose property names are the keys its template reads: a struct becomes an object, an array a
/// list, a `String`, `Bool` or `Int` itself, and a nil optional no key at all (a section over it
/// renders nothing).
enum TemplateValueEncoder {
    static func encode(_ context: some Encodable) -> TemplateValue {
        do {
            return try ContextEncoder.value(of: context)
        } catch {
            // Contexts hold strings, flags, numbers, lists and other contexts, which this
            // encoder takes without failing; anything else is a mistake in a context type.
            preconditionFailure("a template context holds a value templates cannot read: \(error)")
        }
    }
}

/// What a context type holds that no template could read (a floating-point number, a nested
/// container asked for by hand).
private struct UnreadableValue: Error, CustomStringConvertible {
    let description: String
}

/// Collects one value: the fields of a keyed container (every keyed container asked of one
/// encoder writes into the same object), the items of an unkeyed one, or a single value.
private final class ContextEncoder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var fields: [String: TemplateValue]?
    var items: [TemplateValue]?
    var single: TemplateValue?

    var result: TemplateValue {
        if let single { return single }
        if let items { return .list(items) }
        return .object(fields ?? [:])
    }

    static func value(of value: some Encodable) throws -> TemplateValue {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .int(number)
        default:
            let encoder = ContextEncoder()
            try value.encode(to: encoder)
            return encoder.result
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if fields == nil { fields = [:] }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if items == nil { items = [] }
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    static func unreadable(_ what: String) -> UnreadableValue {
        UnreadableValue(description: "\(what) has no template value")
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ContextEncoder
    var codingPath: [any CodingKey] { [] }

    func encodeNil(forKey key: Key) {}
    func encode(_ value: Bool, forKey key: Key) { encoder.fields?[key.stringValue] = .bool(value) }
    func encode(_ value: String, forKey key: Key) { encoder.fields?[key.stringValue] = .string(value) }
    func encode(_ value: Int, forKey key: Key) { encoder.fields?[key.stringValue] = .int(value) }
    func encode(_ value: Double, forKey key: Key) throws { throw ContextEncoder.unreadable("a Double") }
    func encode(_ value: Float, forKey key: Key) throws { throw ContextEncoder.unreadable("a Float") }
    func encode(_ value: Int8, forKey key: Key) { encode(Int(value), forKey: key) }
    func encode(_ value: Int16, forKey key: Key) { encode(Int(value), forKey: key) }
    func encode(_ value: Int32, forKey key: Key) { encode(Int(value), forKey: key) }
    func encode(_ value: Int64, forKey key: Key) { encode(Int(value), forKey: key) }
    func encode(_ value: UInt, forKey key: Key) throws { throw ContextEncoder.unreadable("a UInt") }
    func encode(_ value: UInt8, forKey key: Key) { encode(Int(value), forKey: key) }
    func encode(_ value: UInt16, forKey key: Key) { encode(Int(value), forKey: key) }
    func encode(_ value: UInt32, forKey key: Key) { encode(Int(value), forKey: key) }
    func encode(_ value: UInt64, forKey key: Key) throws { throw ContextEncoder.unreadable("a UInt64") }
    func encode(_ value: some Encodable, forKey key: Key) throws {
        encoder.fields?[key.stringValue] = try ContextEncoder.value(of: value)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("template contexts nest contexts, not containers")
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("template contexts nest contexts, not containers")
    }

    func superEncoder() -> any Encoder { encoder }
    func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ContextEncoder
    var codingPath: [any CodingKey] { [] }
    var count: Int { encoder.items?.count ?? 0 }

    func encodeNil() throws { throw ContextEncoder.unreadable("a nil in a list") }
    func encode(_ value: Bool) { encoder.items?.append(.bool(value)) }
    func encode(_ value: String) { encoder.items?.append(.string(value)) }
    func encode(_ value: Int) { encoder.items?.append(.int(value)) }
    func encode(_ value: some Encodable) throws { encoder.items?.append(try ContextEncoder.value(of: value)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("template contexts nest contexts, not containers")
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("template contexts nest contexts, not containers")
    }

    func superEncoder() -> any Encoder { encoder }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: ContextEncoder
    var codingPath: [any CodingKey] { [] }

    func encodeNil() {}
    func encode(_ value: Bool) { encoder.single = .bool(value) }
    func encode(_ value: String) { encoder.single = .string(value) }
    func encode(_ value: Int) { encoder.single = .int(value) }
    func encode(_ value: some Encodable) throws { encoder.single = try ContextEncoder.value(of: value) }
}
