import APIGenKit

/// Reads a protobuf message on the wire against its proto, as a client built from that proto
/// would: fields it does not declare, enum values it does not list, and bytes that do not decode.
struct ProtobufReader {
    let shapes: ProtoShapes

    /// Messages nested deeper than this are reported rather than walked (protobuf's own limit).
    static let maximumDepth = 100

    func problems(in bytes: [UInt8], message: String) -> [ConformanceProblem] {
        var walk = Walk(shapes: shapes)
        walk.read(bytes[...], message: message, at: "$", depth: 0)
        return walk.problems
    }

    private struct Walk {
        let shapes: ProtoShapes
        var problems: [ConformanceProblem] = []

        mutating func report(_ kind: ConformanceProblem.Kind, _ path: String, _ message: String, breaks: Bool = true) {
            problems.append(ConformanceProblem(kind: kind, path: path, message: message, location: nil, breaksDecoding: breaks))
        }

        mutating func read(_ bytes: ArraySlice<UInt8>, message name: String, at path: String, depth: Int) {
            guard depth < ProtobufReader.maximumDepth else { return report(.typeMismatch, path, "nested deeper than \(ProtobufReader.maximumDepth) messages") }
            guard let message = shapes.messages[name] else { return }
            var cursor = Cursor(bytes: bytes)
            var counts: [Int32: Int] = [:]
            while !cursor.isAtEnd {
                guard let key = cursor.varint(), key >> 3 > 0, key >> 3 <= UInt64(Int32.max) else {
                    return report(.typeMismatch, path, "'\(name)' does not decode: a field's key is malformed at byte \(cursor.offset)")
                }
                let number = Int32(key >> 3)
                let wireType = Int(key & 7)
                guard let value = cursor.value(wireType: wireType) else {
                    return report(.typeMismatch, path, "'\(name)' does not decode: field \(number) is cut short or of an unknown wire type (\(wireType))")
                }
                guard let field = message.fields[number] else {
                    report(.extraField, "\(path).#\(number)", "'\(name)' has no field \(number) (\(Self.wireName(wireType)))", breaks: false)
                    continue
                }
                let index = counts[number, default: 0]
                counts[number] = index + 1
                let fieldPath = field.isRepeated ? "\(path).\(field.jsonName)[\(index)]" : "\(path).\(field.jsonName)"
                check(value, wireType: wireType, field: field, of: name, at: fieldPath, depth: depth)
            }
        }

        mutating func check(_ value: ArraySlice<UInt8>, wireType: Int, field: ProtoShapes.Field, of message: String, at path: String, depth: Int) {
            let expected = Self.wireType(of: field.type)
            // A repeated number may come packed: one length-delimited run of values.
            if field.isRepeated, wireType == 2, expected != 2 {
                var run = Cursor(bytes: value)
                while !run.isAtEnd {
                    guard let element = run.value(wireType: expected) else {
                        return report(.typeMismatch, path, "packed field '\(field.name)' of '\(message)' does not decode")
                    }
                    checkEnum(element, field: field, at: path)
                }
                return
            }
            guard wireType == expected else {
                return report(.typeMismatch, path, "field '\(field.name)' of '\(message)' is \(Self.wireName(expected)) in the proto, but came as \(Self.wireName(wireType))")
            }
            switch field.type {
            case .string:
                if String(validating: value, as: UTF8.self) == nil { report(.typeMismatch, path, "field '\(field.name)' of '\(message)' is not UTF-8 text") }
            case .message(let name):
                read(value, message: name, at: path, depth: depth + 1)
            case .enumeration:
                checkEnum(value, field: field, at: path)
            default:
                return
            }
        }

        /// An enum value the proto does not list: proto3 keeps it as a number (`UNRECOGNIZED`).
        mutating func checkEnum(_ value: ArraySlice<UInt8>, field: ProtoShapes.Field, at path: String) {
            guard case .enumeration(let name) = field.type, let values = shapes.enums[name] else { return }
            var cursor = Cursor(bytes: value)
            guard let number = cursor.varint() else { return }
            let value = Int32(truncatingIfNeeded: number)
            if values[value] == nil {
                report(.unknownEnumValue, path, "\(value) is not a value of '\(name)': it decodes as UNRECOGNIZED(\(value))", breaks: false)
            }
        }

        static func wireType(of type: ProtoShapes.FieldType) -> Int {
            switch type {
            case .double, .fixed64, .sfixed64: 1
            case .float, .fixed32, .sfixed32: 5
            case .string, .bytes, .message: 2
            case .int64, .uint64, .int32, .bool, .uint32, .sint32, .sint64, .enumeration: 0
            }
        }

        static func wireName(_ wireType: Int) -> String {
            switch wireType {
            case 0: "a varint"
            case 1: "64 bits"
            case 2: "length-delimited"
            case 5: "32 bits"
            default: "wire type \(wireType)"
            }
        }
    }
}

/// A position in protobuf bytes.
struct Cursor {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var isAtEnd: Bool { index >= bytes.endIndex }
    var offset: Int { index - bytes.startIndex }

    mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            index += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// The bytes of one value of `wireType`: a varint's own bytes, 8 or 4 fixed bytes, or a
    /// length-delimited value's contents; nil when they run past the end or the type is unknown.
    mutating func value(wireType: Int) -> ArraySlice<UInt8>? {
        let start = index
        let length: Int
        switch wireType {
        case 0:
            guard varint() != nil else { return nil }
            return bytes[start..<index]
        case 1: length = 8
        case 5: length = 4
        case 2:
            guard let count = varint(), count <= UInt64(bytes.endIndex - index) else { return nil }
            let contents = index..<(index + Int(count))
            index = contents.upperBound
            return bytes[contents]
        default:
            return nil
        }
        guard bytes.endIndex - index >= length else { return nil }
        index += length
        return bytes[start..<index]
    }
}
