import Foundation

/// Turning manifest names into Swift identifiers.
package enum SwiftIdentifier {
    /// Whether `name` is an identifier Swift accepts as written (before keyword escaping).
    package static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        guard first == "_" || isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || isLetter($0) || ("0"..."9").contains($0) }
    }

    /// ASCII letters only: identifiers stay readable and free of look-alike characters.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// A Swift identifier for any manifest name. A valid name stays as written; any other is split
    /// into words at each character Swift does not allow (spaces, dashes, dots, non-ASCII) and
    /// joined in camel case: `X-Request-ID` → `xRequestID`, `get thing` → `GetThing` (capitalized),
    /// `2fa` → `_2fa`. Keywords are escaped separately (`escaped`).
    package static func make(from name: String, capitalized: Bool) -> String {
        if isValid(name) { return name }
        // Accented letters keep their base letter (`café` → `cafe`) rather than splitting a word.
        let folded = name.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let words = folded.unicodeScalars
            .split { !($0 == "_" || isLetter($0) || ("0"..."9").contains($0)) }
            .map { String(String.UnicodeScalarView($0)) }
        guard !words.isEmpty else { return "_" }
        var result = words.enumerated().map { index, word in
            index == 0 && !capitalized
                ? word.prefix(1).lowercased() + word.dropFirst()
                : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
        return result
    }

    /// `name`, in backticks when it is a keyword (`default` becomes `` `default` ``).
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` (an escaped identifier) as an argument label in a call: bare, since a call's label
    /// may be any keyword but `inout`, `var` and `let` (Swift warns about the backticks otherwise).
    static func argumentLabel(_ name: String) -> String {
        let bare = name.trimmingBackticks
        return ["inout", "var", "let"].contains(bare) ? name : bare
    }

    /// The name of the stored property that keeps an API's parameter `name`, one of `parameters`:
    /// `name`, or `nameParameter` when `BaseAPI` or the generated class already has an instance
    /// property or nested type so named (`options`), and `selfValue` for a parameter named `self`.
    static func apiProperty(_ name: String, among parameters: [String]) -> String {
        let bare = name.trimmingBackticks
        if bare == "self" { return "selfValue" }
        guard apiMemberNames.contains(bare) else { return name }
        var property = bare + "Parameter"
        while parameters.contains(property) { property += "Parameter" }
        return property
    }

    /// The names a parameter's property must not take: `BaseAPI`'s public instance properties
    /// and the nested type a generated class declares. Inherited methods (`start()`, `cancel()`,
    /// `using(_:)`) and static members (`definition`) leave a stored property of the same name
    /// free, and the rest of `BaseAPI` is internal to the runtime; a method without arguments the
    /// generated class declared itself would not, so the templates declare none. `make docs` checks this list against `BaseAPI`'s
    /// symbol graph.
    package static let apiMemberNames: Set<String> = ["options", "rpcDelegate", "ResponseHeaders"]

    /// Words that cannot be used bare as a declaration name, property or argument label in Swift 6.
    /// `Type` and `Protocol` are not keywords, but a member so named needs backticks (`Foo.Type`
    /// is the metatype). Contextual keywords (`open`, `nonisolated`, `async`, `some`, …) are free
    /// as names, so `case open` stays bare.
    package static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "Type", "Protocol",
    ]

    /// Names a generated type must not take: Swift's own names that generated code spells bare,
    /// and the modules it qualifies names with. The runtime's types are spelled in full
    /// (`APIRuntime.RetryPolicy`), so a manifest type may share a name with any of them.
    package static let reservedTypeNames: Set<String> = [
        "String", "Int", "Int32", "Int64", "Double", "Float", "Bool", "Date", "URL", "UUID", "Data", "Decimal",
        "Array", "Dictionary", "Optional", "Codable", "Sendable", "Equatable", "Hashable", "CaseIterable",
        "RawRepresentable", "CodingKey", "Decoder", "Encoder", "Error", "Void", "Never", "Type", "Protocol",
        "Swift", "Foundation", "APIRuntime", "APIEventStreams", "APIGRPC", "SwiftProtobuf",
    ]
}

extension String {
    /// `` `default` `` → `default`: the name as the wire and `CodingKeys` see it.
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
