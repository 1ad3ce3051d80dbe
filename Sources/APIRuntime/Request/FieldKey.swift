/// A field's name on the wire: the coding key of every generated model's `init(from:)` and
/// `encode(to:)`, and of a JSON body's parameters.
///
/// Generated models spell their keys as string literals (`forKey: "user_id"`) instead of a
/// derived `CodingKeys` enum each: deriving an enum's `CodingKey`, `Hashable` and string switch per
/// model was most of the compile time of a workspace's types (docs/ARCHITECTURE.md).
public struct FieldKey: CodingKey, ExpressibleByStringLiteral, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(stringValue: String) {
        self.stringValue = stringValue
    }

    public init(stringLiteral value: String) {
        stringValue = value
    }

    /// Models are JSON objects: no key is a position.
    public init?(intValue: Int) {
        nil
    }
}
