/// What a template reads: the typed form of a Mustache context. Rendering switches over these
/// cases instead of casting `Any` to a dozen protocols at every tag, which is what made
/// swift-mustache the larger part of a cold generation run.
enum TemplateValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case list([TemplateValue])
    case object([String: TemplateValue])

    static func strings(_ strings: [String]) -> TemplateValue {
        .list(strings.map(TemplateValue.string))
    }

    /// Mustache's truth: a section renders unless its value is missing, false or an empty list.
    /// An empty string and 0 are values like any other (as in swift-mustache).
    static func isTruthy(_ value: TemplateValue?) -> Bool {
        switch value {
        case nil, .bool(false): false
        case .list(let items): !items.isEmpty
        default: true
        }
    }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
    init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
