/// An amount in cents, written by hand and named by `swift: Money` in apis/users.yaml.
public struct Money: Codable, Hashable, Sendable {
    public var cents: Int

    public init(cents: Int) {
        self.cents = cents
    }

    public init(from decoder: any Decoder) throws {
        cents = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(cents)
    }
}
