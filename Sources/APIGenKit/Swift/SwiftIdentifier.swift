/// Turning manifest names into Swift identifiers.
enum SwiftIdentifier {
    /// Whether `name` is an identifier Swift accepts as written (before keyword escaping).
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        guard first == "_" || isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || isLetter($0) || ("0"..."9").contains($0) }
    }

    /// ASCII letters only: identifiers stay readable and free of look-alike characters.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// `name`, in backticks when it is a keyword (`default` becomes `` `default` ``).
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Words that cannot be used bare as a declaration name, property or argument label in Swift 6.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
    ]

    /// Names a generated type must not take: they would shadow the types generated code relies on.
    static let reservedTypeNames: Set<String> = [
        "String", "Int", "Int64", "Double", "Bool", "Date", "URL", "UUID", "Data", "Array", "Dictionary",
        "Optional", "Codable", "Sendable", "Equatable", "BaseAPI", "APIDefinition", "APIDefaults", "APIError",
        "APIManager", "RequestBuilder", "ResponseDecoder", "NoContent", "ParameterValue", "Parameters",
        "Foundation", "APIRuntime", "Swift", "Type", "Protocol",
    ]
}
