import SwiftProtobufPluginLibrary

/// The messages and enums of a workspace's protos, by full proto name (`routeguide.Point`), as
/// their fields travel: what `apigen verify` encodes a gRPC example with and reads a reply by.
public struct ProtoShapes: Sendable {
    public struct Message: Sendable {
        public var fullName: String
        /// Fields by number.
        public var fields: [Int32: Field]
        /// A map field's entry: field 1 the key, field 2 the value.
        public var isMapEntry: Bool
        /// The field numbers the proto reserves (`reserved 3, 9 to 11;`).
        public var reservedNumbers: [Range<Int32>] = []
    }

    public struct Field: Sendable {
        public var name: String
        /// The name in proto's JSON mapping (`lower_camel` for `lower_snake`).
        public var jsonName: String
        public var number: Int32
        public var type: FieldType
        public var isRepeated: Bool
        /// Whether a value equal to its default is still sent (proto3 `optional`, a oneof's
        /// member, proto2, a message); without it, SwiftProtobuf leaves the default out.
        public var hasPresence = false
        /// Whether a repeated field's values go in one length-delimited record (proto3's default
        /// for numbers and enums).
        public var isPacked = false
        /// The `oneof` it is a member of (not a proto3 `optional`'s own); nil for none.
        public var oneof: String? = nil
    }

    /// A field's type, as the wire reads it.
    public enum FieldType: Sendable, Equatable {
        case double, float, int64, uint64, int32, fixed64, fixed32, bool, string, bytes, uint32, sfixed32, sfixed64, sint32, sint64
        /// An enum, by full name.
        case enumeration(String)
        /// A message (or a map entry, or a group), by full name.
        case message(String)
    }

    public var messages: [String: Message] = [:]
    /// Each enum's values: names by number.
    public var enums: [String: [Int32: String]] = [:]

    public init() {}

    init(_ set: DescriptorSet) {
        for file in set.files {
            for enumeration in file.enums { add(enumeration) }
            for message in file.messages { add(message) }
        }
    }

    /// Both sets' messages and enums; a name in both is one proto's, read twice.
    public func merging(_ other: ProtoShapes) -> ProtoShapes {
        var merged = self
        merged.messages.merge(other.messages) { first, _ in first }
        merged.enums.merge(other.enums) { first, _ in first }
        return merged
    }

    private mutating func add(_ enumeration: EnumDescriptor) {
        enums[enumeration.fullName] = Dictionary(enumeration.values.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    private mutating func add(_ message: Descriptor) {
        for enumeration in message.enums { add(enumeration) }
        for nested in message.messages { add(nested) }
        let fields = message.fields.map { field in
            Field(
                name: field.name, jsonName: field.jsonName ?? field.name, number: field.number, type: Self.type(of: field), isRepeated: field.isRepeated,
                hasPresence: field.hasPresence, isPacked: field.isPacked, oneof: field.realContainingOneof?.name
            )
        }
        messages[message.fullName] = Message(
            fullName: message.fullName, fields: Dictionary(fields.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first }),
            isMapEntry: message.options.mapEntry, reservedNumbers: message.reservedRanges
        )
    }

    private static func type(of field: FieldDescriptor) -> FieldType {
        switch field.type {
        case .double: .double
        case .float: .float
        case .int64: .int64
        case .uint64: .uint64
        case .int32: .int32
        case .fixed64: .fixed64
        case .fixed32: .fixed32
        case .bool: .bool
        case .string: .string
        case .bytes: .bytes
        case .uint32: .uint32
        case .sfixed32: .sfixed32
        case .sfixed64: .sfixed64
        case .sint32: .sint32
        case .sint64: .sint64
        case .enum: .enumeration(field.enumType.fullName)
        case .message, .group: .message(field.messageType.fullName)
        }
    }
}
