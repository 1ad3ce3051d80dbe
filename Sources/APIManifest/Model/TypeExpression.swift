/// A type as a manifest writes it, in Swift's own spelling: `Int`, `User?`, `[User]`, `[String: Int]`.
///
/// Names are not resolved here: `named("User")` may be a scalar or a model, which the generator
/// decides once it has read every file.
public indirect enum TypeExpression: Hashable, Sendable, CustomStringConvertible {
    case named(String)
    case optional(TypeExpression)
    case array(TypeExpression)
    /// A dictionary with `String` keys, the only key type JSON objects have.
    case dictionary(TypeExpression)

    public var description: String {
        switch self {
        case .named(let name): return name
        case .optional(let wrapped): return "\(wrapped)?"
        case .array(let element): return "[\(element)]"
        case .dictionary(let value): return "[String: \(value)]"
        }
    }

    /// The type with one level of optionality removed.
    public var unwrapped: TypeExpression {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// Every name the expression mentions, innermost included.
    public var names: [String] {
        switch self {
        case .named(let name): return [name]
        case .optional(let inner), .array(let inner), .dictionary(let inner): return inner.names
        }
    }
}

extension TypeExpression {
    public struct ParseError: Error, Equatable {
        public var message: String
        /// Offset in characters from the start of the text, to point the column at the problem.
        public var offset: Int
    }

    /// Parses the grammar `type := ( '[' type ']' | '[' type ':' type ']' | identifier ) '?'?`.
    public static func parse(_ text: String) throws(ParseError) -> TypeExpression {
        var parser = Parser(characters: Array(text))
        let type = try parser.parseType()
        parser.skipSpaces()
        guard parser.position == parser.characters.count else {
            throw ParseError(message: "unexpected '\(parser.characters[parser.position])' in type '\(text)'", offset: parser.position)
        }
        return type
    }

    private struct Parser {
        let characters: [Character]
        var position = 0

        mutating func skipSpaces() {
            while position < characters.count, characters[position] == " " { position += 1 }
        }

        mutating func parseType() throws(ParseError) -> TypeExpression {
            skipSpaces()
            var type: TypeExpression
            if position < characters.count, characters[position] == "[" {
                position += 1
                let first = try parseType()
                skipSpaces()
                if position < characters.count, characters[position] == ":" {
                    guard first == .named("String") else {
                        throw ParseError(message: "dictionary keys must be String, found '\(first)'", offset: position)
                    }
                    position += 1
                    type = .dictionary(try parseType())
                } else {
                    type = .array(first)
                }
                skipSpaces()
                guard position < characters.count, characters[position] == "]" else {
                    throw ParseError(message: "expected ']' to close the type", offset: position)
                }
                position += 1
            } else {
                let start = position
                while position < characters.count, characters[position].isLetter || characters[position].isNumber || "_.-".contains(characters[position]) {
                    position += 1
                }
                guard position > start else {
                    throw ParseError(message: "expected a type name", offset: position)
                }
                type = .named(String(characters[start..<position]))
            }
            skipSpaces()
            if position < characters.count, characters[position] == "?" {
                position += 1
                type = .optional(type)
            }
            return type
        }
    }
}
