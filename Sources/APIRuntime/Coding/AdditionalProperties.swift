import APIWireFormat
/// The members of a JSON object that a model does not declare (`additionalProperties: true` in a
/// manifest), read and written beside the declared ones by the model's `init(from:)` and
/// `encode(to:)`.
public enum AdditionalProperties {
    /// Every member of the object `decoder` reads whose key is not one of `Keys`.
    public static func decode<Keys: CodingKey & CaseIterable>(from decoder: any Decoder, excluding _: Keys.Type) throws -> [String: JSONValue] {
        let declared = Set(Keys.allCases.map(\.stringValue))
        let container = try decoder.container(keyedBy: FieldKey.self)
        var members: [String: JSONValue] = [:]
        for key in container.allKeys where !declared.contains(key.stringValue) {
            members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        return members
    }

    /// Writes `members` into the object `encoder` writes; the model writes its declared members
    /// after them, so a declared key wins.
    public static func encode(_ members: [String: JSONValue], to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        for (key, value) in members {
            try container.encode(value, forKey: FieldKey(stringValue: key))
        }
    }
}
