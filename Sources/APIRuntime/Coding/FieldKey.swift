/// Any member name of a JSON object, as a coding key: a JSON body's parameters, the members a
/// model does not declare.
struct FieldKey: CodingKey, Sendable {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    /// An object's members have names, not positions.
    init?(intValue: Int) {
        nil
    }
}
