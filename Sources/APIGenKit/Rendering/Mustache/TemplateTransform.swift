import Foundation

/// The functions a tag may apply to a value, `{{uppercased(name)}}`: swift-mustache's set, which
/// apigen's templates were first written against, so that custom templates keep working.
enum TemplateTransform: String, Sendable, CaseIterable {
    case empty, capitalized, lowercased, uppercased, reversed
    case first, last, count, sorted, enumerated
    case equalzero, plusone, minusone, even, odd, index

    /// The value the transform gives, or nil where it means nothing for that kind of value (the
    /// tag then renders as a missing value does).
    func apply(to value: TemplateValue) -> TemplateValue? {
        switch value {
        case .string(let text): apply(toString: text)
        case .list(let items): apply(toList: items)
        case .object(let fields): apply(toObject: fields)
        case .int(let number): apply(toInt: number)
        case .bool: nil
        }
    }

    /// `first()`, `last()`, `index()`, `even()`, `odd()`: where the innermost list section is.
    func apply(toPosition index: Int, of count: Int) -> TemplateValue? {
        switch self {
        case .first: .bool(index == 0)
        case .last: .bool(index == count - 1)
        case .index: .int(index)
        case .even: .bool(index % 2 == 0)
        case .odd: .bool(index % 2 == 1)
        default: nil
        }
    }

    private func apply(toString text: String) -> TemplateValue? {
        switch self {
        case .empty: .bool(text.isEmpty)
        case .capitalized: .string(text.capitalized)
        case .lowercased: .string(text.lowercased())
        case .uppercased: .string(text.uppercased())
        case .reversed: .string(String(text.reversed()))
        default: nil
        }
    }

    private func apply(toList items: [TemplateValue]) -> TemplateValue? {
        switch self {
        case .first: items.first
        case .last: items.last
        case .reversed: .list(items.reversed())
        case .count: .int(items.count)
        case .empty: .bool(items.isEmpty)
        case .sorted: Self.sorted(items)
        default: nil
        }
    }

    private func apply(toObject fields: [String: TemplateValue]) -> TemplateValue? {
        switch self {
        case .count: .int(fields.count)
        case .empty: .bool(fields.isEmpty)
        // In key order (swift-mustache leaves `enumerated` in hash order; generated code must not vary).
        case .enumerated, .sorted: .list(fields.sorted { $0.key < $1.key }.map { ["key": .string($0.key), "value": $0.value] })
        default: nil
        }
    }

    private func apply(toInt number: Int) -> TemplateValue? {
        switch self {
        case .equalzero: .bool(number == 0)
        case .plusone: .int(number + 1)
        case .minusone: .int(number - 1)
        case .even: .bool(number % 2 == 0)
        case .odd: .bool(number % 2 != 0)
        default: nil
        }
    }

    /// A list of strings or of numbers, sorted; any other list has no order.
    private static func sorted(_ items: [TemplateValue]) -> TemplateValue? {
        var strings: [String] = []
        var numbers: [Int] = []
        for item in items {
            switch item {
            case .string(let text): strings.append(text)
            case .int(let number): numbers.append(number)
            default: return nil
            }
        }
        if numbers.isEmpty { return .strings(strings.sorted()) }
        return strings.isEmpty ? .list(numbers.sorted().map(TemplateValue.int)) : nil
    }
}
