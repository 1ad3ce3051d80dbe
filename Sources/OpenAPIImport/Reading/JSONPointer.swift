/// A place in an OpenAPI document as a JSON pointer (RFC 6901) fragment: `#/paths/~1pets/get`.
struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    private(set) var tokens: [String]

    init(_ tokens: [String] = []) {
        self.tokens = tokens
    }

    /// The pointer of a decoding path (array indices become their number).
    init(codingPath: [any CodingKey]) {
        tokens = codingPath.map { key in key.intValue.map(String.init) ?? key.stringValue }
    }

    static let root = JSONPointer()

    func appending(_ tokens: String...) -> JSONPointer {
        JSONPointer(self.tokens + tokens)
    }

    func appending(_ index: Int) -> JSONPointer {
        JSONPointer(tokens + [String(index)])
    }

    var description: String {
        "#" + tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
    }
}
