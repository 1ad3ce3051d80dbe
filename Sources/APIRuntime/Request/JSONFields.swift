/// The `body` parameters of a JSON API, encoded as one JSON object with a key per parameter.
struct JSONFields: Encodable, Sendable {
    var fields: [(key: String, value: any Encodable & Sendable)] = []

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for field in fields {
            try container.encode(field.value, forKey: Key(stringValue: field.key))
        }
    }
}

/// By-position RPC parameters, encoded as one JSON array.
struct PositionalFields: Encodable, Sendable {
    var values: [any Encodable & Sendable]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for value in values {
            try container.encode(value)
        }
    }
}
