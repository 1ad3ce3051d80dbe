/// The `{name}` placeholders of a REST path.
struct PathTemplate {
    struct Placeholder {
        var name: String
        /// Offset of the `{` in characters, to point a diagnostic at it.
        var offset: Int
    }

    var placeholders: [Placeholder] = []

    struct ParseError: Error {
        var message: String
        var offset: Int
    }

    init(_ path: String) throws(ParseError) {
        var current: (start: Int, name: String)?
        for (offset, character) in path.enumerated() {
            switch (character, current) {
            case ("{", nil):
                current = (offset, "")
            case ("{", .some):
                throw ParseError(message: "'{' inside a placeholder", offset: offset)
            case ("}", let open?):
                guard !open.name.isEmpty else { throw ParseError(message: "empty placeholder '{}'", offset: open.start) }
                placeholders.append(Placeholder(name: open.name, offset: open.start))
                current = nil
            case ("}", nil):
                throw ParseError(message: "'}' without a matching '{'", offset: offset)
            case (_, var open?):
                open.name.append(character)
                current = open
            case (_, nil):
                if character == "?" || character == "#" {
                    throw ParseError(message: "the path cannot contain '\(character)'; declare query parameters with 'in: query'", offset: offset)
                }
            }
        }
        if let open = current { throw ParseError(message: "'{' is never closed", offset: open.start) }
    }
}
