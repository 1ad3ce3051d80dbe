/// The `body` parameters of a JSON API, encoded as one JSON object with a key per parameter.
struct JSONFields: Encodable, Sendable {
    var fields: [(key: String, value: any Encodable & Sendable)] = []

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        for field in fields {
            try container.encode(field.value, forKey: FieldKey(stringValue: field.key))
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
