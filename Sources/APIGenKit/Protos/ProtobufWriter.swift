import APIWireFormat
import Foundation

/// Encodes a message written as proto's JSON (`{"latitude": 1, "name": "x"}`) into the
/// protobuf wire format, from the proto's descriptors: the request of a gRPC method's `example:`,
/// which `apigen verify` sends without the generated messages.
///
/// Members are named as the proto's JSON does (`pointCount`) or as the proto writes them
/// (`point_count`); enums by value name or number; 64-bit integers as numbers or text; bytes in
/// base64; maps as objects. Well-known types are read as the messages they are
/// (`{"seconds": 1}` for a Timestamp), not in their special JSON forms.
public struct ProtobufWriter: Sendable {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// Where in the example, as a JSONPath: `$.location.latitude`.
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    let shapes: ProtoShapes

    public init(shapes: ProtoShapes) {
        self.shapes = shapes
    }

    /// `value`, a JSON object, as a `message` on the wire.
    public func encode(_ value: JSONValue, as message: String) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        try write(value, message: message, at: "$", into: &bytes, depth: 0)
        return bytes
    }

    /// The members in field-number order, defaults of fields without presence left out, repeated
    /// numbers packed: the bytes SwiftProtobuf's generated messages serialize to, so that what
    /// `apigen verify` sends is what the app sends.
    private func write(_ value: JSONValue, message name: String, at path: String, into bytes: inout [UInt8], depth: Int) throws(Failure) {
        guard depth < 64 else { throw Failure(path: path, message: "nested deeper than 64 messages") }
        guard let message = shapes.messages[name] else { throw Failure(path: path, message: "'\(name)' is not a message of the protos") }
        guard case .object(let members) = value else { throw Failure(path: path, message: "'\(name)' is a message: an object, not \(value.kindName)") }
        var present: [(field: ProtoShapes.Field, key: String, value: JSONValue)] = []
        for key in members.keys.sorted() {
            guard let field = message.fields.values.first(where: { $0.jsonName == key || $0.name == key }) else {
                let names = message.fields.values.sorted { $0.number < $1.number }.map(\.jsonName).joined(separator: ", ")
                throw Failure(path: "\(path).\(key)", message: "'\(name)' has no field '\(key)'; its fields: \(names)")
            }
            if members[key]! != .null { present.append((field, key, members[key]!)) }
        }
        for (field, key, member) in present.sorted(by: { $0.field.number < $1.field.number }) {
            let fieldPath = "\(path).\(key)"
            if field.isRepeated, case .message(let entryName) = field.type, shapes.messages[entryName]?.isMapEntry == true {
                guard case .object(let entries) = member else { throw Failure(path: fieldPath, message: "a map: an object, not \(member.kindName)") }
                for entryKey in entries.keys.sorted() {
                    let entry = JSONValue.object(["key": .string(entryKey), "value": entries[entryKey]!])
                    var encoded: [UInt8] = []
                    try writeMapEntry(entry, message: entryName, at: "\(fieldPath).\(entryKey)", into: &encoded, depth: depth + 1)
                    Self.key(field.number, wireType: 2, into: &bytes)
                    Self.lengthDelimited(encoded, into: &bytes)
                }
            } else if field.isRepeated {
                guard case .array(let items) = member else { throw Failure(path: fieldPath, message: "a repeated field: an array, not \(member.kindName)") }
                if field.isPacked {
                    guard !items.isEmpty else { continue }
                    var packed: [UInt8] = []
                    for (index, item) in items.enumerated() {
                        _ = try writeField(item, field, at: "\(fieldPath)[\(index)]", into: &packed, depth: depth, withKey: false)
                    }
                    Self.key(field.number, wireType: 2, into: &bytes)
                    Self.lengthDelimited(packed, into: &bytes)
                } else {
                    for (index, item) in items.enumerated() {
                        _ = try writeField(item, field, at: "\(fieldPath)[\(index)]", into: &bytes, depth: depth)
                    }
                }
            } else {
                var encoded: [UInt8] = []
                let isDefault = try writeField(member, field, at: fieldPath, into: &encoded, depth: depth)
                if !isDefault || field.hasPresence { bytes += encoded }
            }
        }
    }

    /// A map's entry: its key and its value, both always written, as SwiftProtobuf writes them.
    private func writeMapEntry(_ entry: JSONValue, message name: String, at path: String, into bytes: inout [UInt8], depth: Int) throws(Failure) {
        guard let message = shapes.messages[name], case .object(let members) = entry else { return }
        for field in message.fields.values.sorted(by: { $0.number < $1.number }) {
            guard let member = members[field.name], member != .null else { continue }
            _ = try writeField(member, field, at: path, into: &bytes, depth: depth)
        }
    }

    /// Writes one value of `field` (its key first unless `withKey` is false, for a packed
    /// record); returns whether the value is the field's default.
    private func writeField(_ value: JSONValue, _ field: ProtoShapes.Field, at path: String, into bytes: inout [UInt8], depth: Int, withKey: Bool = true) throws(Failure) -> Bool {
        func integer(_ range: ClosedRange<Int64>) throws(Failure) -> Int64 {
            let number: Int64? = switch value {
            case .integer(let number): number
            case .string(let text): Int64(text)
            case .number(let number) where number.rounded() == number && abs(number) < 9e18: Int64(number)
            default: nil
            }
            guard let number, range.contains(number) else { throw Failure(path: path, message: "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(value.json)") }
            return number
        }
        func real() throws(Failure) -> Double {
            switch value {
            case .integer(let number): return Double(number)
            case .number(let number): return number
            default: throw Failure(path: path, message: "expected a number, found \(value.kindName)")
            }
        }
        let int32Range = Int64(Int32.min)...Int64(Int32.max)
        let uint32Range = Int64(0)...Int64(UInt32.max)
        switch field.type {
        case .int32, .int64, .uint32, .uint64, .bool, .sint32, .sint64, .enumeration:
            let raw: UInt64
            switch field.type {
            case .int32: raw = UInt64(bitPattern: try integer(int32Range))
            case .int64: raw = UInt64(bitPattern: try integer(Int64.min...Int64.max))
            case .uint32: raw = UInt64(try integer(uint32Range))
            case .uint64: raw = UInt64(bitPattern: try integer(0...Int64.max))
            case .sint32, .sint64:
                let number = try integer(field.type == .sint32 ? int32Range : Int64.min...Int64.max)
                raw = UInt64(bitPattern: (number << 1) ^ (number >> 63))
            case .bool:
                guard case .bool(let flag) = value else { throw Failure(path: path, message: "expected true or false, found \(value.kindName)") }
                raw = flag ? 1 : 0
            case .enumeration(let name):
                let values = shapes.enums[name] ?? [:]
                if case .string(let text) = value {
                    guard let number = values.first(where: { $0.value == text })?.key else {
                        throw Failure(path: path, message: "'\(text)' is not a value of '\(name)': \(values.sorted { $0.key < $1.key }.map(\.value).joined(separator: ", "))")
                    }
                    raw = UInt64(bitPattern: Int64(number))
                } else {
                    raw = UInt64(bitPattern: try integer(int32Range))
                }
            default: return false
            }
            if withKey { Self.key(field.number, wireType: 0, into: &bytes) }
            Self.varint(raw, into: &bytes)
            return raw == 0
        case .fixed64, .sfixed64, .double:
            let raw: UInt64 = switch field.type {
            case .double: try real().bitPattern
            case .fixed64: UInt64(try integer(0...Int64.max))
            default: UInt64(bitPattern: try integer(Int64.min...Int64.max))
            }
            if withKey { Self.key(field.number, wireType: 1, into: &bytes) }
            bytes += withUnsafeBytes(of: raw.littleEndian, Array.init)
            // SwiftProtobuf leaves out 0 and -0 alike.
            return field.type == .double ? Double(bitPattern: raw) == 0 : raw == 0
        case .fixed32, .sfixed32, .float:
            let raw: UInt32 = switch field.type {
            case .float: Float(try real()).bitPattern
            case .fixed32: UInt32(try integer(uint32Range))
            default: UInt32(bitPattern: Int32(try integer(int32Range)))
            }
            if withKey { Self.key(field.number, wireType: 5, into: &bytes) }
            bytes += withUnsafeBytes(of: raw.littleEndian, Array.init)
            return field.type == .float ? Float(bitPattern: raw) == 0 : raw == 0
        case .string:
            guard case .string(let text) = value else { throw Failure(path: path, message: "expected a string, found \(value.kindName)") }
            Self.key(field.number, wireType: 2, into: &bytes)
            Self.lengthDelimited(Array(text.utf8), into: &bytes)
            return text.isEmpty
        case .bytes:
            guard case .string(let text) = value, let data = Data(base64Encoded: text) else { throw Failure(path: path, message: "expected bytes in base64, found \(value.json)") }
            Self.key(field.number, wireType: 2, into: &bytes)
            Self.lengthDelimited(Array(data), into: &bytes)
            return data.isEmpty
        case .message(let name):
            var encoded: [UInt8] = []
            try write(value, message: name, at: path, into: &encoded, depth: depth + 1)
            Self.key(field.number, wireType: 2, into: &bytes)
            Self.lengthDelimited(encoded, into: &bytes)
            // A message given is sent, empty or not: it has presence.
            return false
        }
    }

    private static func key(_ number: Int32, wireType: UInt64, into bytes: inout [UInt8]) {
        varint(UInt64(number) << 3 | wireType, into: &bytes)
    }

    private static func lengthDelimited(_ contents: [UInt8], into bytes: inout [UInt8]) {
        varint(UInt64(contents.count), into: &bytes)
        bytes += contents
    }

    private static func varint(_ value: UInt64, into bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
