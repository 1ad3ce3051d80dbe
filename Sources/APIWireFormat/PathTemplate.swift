/// An API's path template (`/items/{id}/parts/{part}`): fixed text and `{name}` placeholders. One
/// grammar for every reader: the generator checks a manifest's path with it (`init(validating:)`,
/// each mistake at its column), the runtime fills it with a call's values, the mock server and the
/// recorder find the values in a request's path (`match`).
///
/// It is split once, when it is made, so that a call only appends: fixed text is kept
/// percent-encoded as RFC 3986 allows in a path, and each value is encoded as a path segment.
package struct PathTemplate: Sendable, Hashable {
    package enum Part: Sendable, Hashable {
        /// Fixed text, percent-encoded as RFC 3986 allows in a path.
        case text(String)
        /// A `{name}` placeholder.
        case placeholder(String)
    }

    /// A placeholder and where its `{` is in the template, in characters.
    package struct Placeholder: Sendable, Hashable {
        package let name: String
        package let offset: Int
    }

    /// What is wrong with a template, and where, in characters from its start.
    package struct SyntaxError: Error, Sendable, Equatable {
        package let message: String
        package let offset: Int
    }

    /// The fixed text and placeholders, in order.
    package let parts: [Part]
    /// The placeholders, in order, with where each is in the template.
    package let placeholders: [Placeholder]

    /// A template as generated code carries it, checked when its manifest was read: one that does
    /// not start with `/` gets one, unless it is empty, and a `{` with no `}` after it is fixed text.
    package init(_ template: String) {
        var parts: [Part] = []
        var placeholders: [Placeholder] = []
        var text = template.isEmpty || template.hasPrefix("/") ? "" : "/"
        // Searched as UTF-8 bytes, not by `Character` (grapheme breaking): every call's path
        // starts here when its definition is made.
        var rest = template[...]
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "{")),
              let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: "}")) {
            text += rest[..<open]
            if !text.isEmpty { parts.append(.text(PercentEncoding.pathText(text))) }
            text = ""
            let name = String(rest[rest.utf8.index(after: open)..<close])
            parts.append(.placeholder(name))
            placeholders.append(Placeholder(name: name, offset: template.distance(from: template.startIndex, to: open)))
            rest = rest[rest.utf8.index(after: close)...]
        }
        text += rest
        if !text.isEmpty { parts.append(.text(PercentEncoding.pathText(text))) }
        self.parts = parts
        self.placeholders = placeholders
    }

    /// A template as a manifest writes it; throws at the first mistake: a `{` inside a
    /// placeholder, an empty `{}`, a `}` or `{` without its other half, a `?` or `#` (query
    /// parameters are declared `in: query`).
    package init(validating template: String) throws(SyntaxError) {
        var open: (offset: Int, name: String)?
        for (offset, character) in template.enumerated() {
            switch (character, open) {
            case ("{", nil):
                open = (offset, "")
            case ("{", .some):
                throw SyntaxError(message: "'{' inside a placeholder", offset: offset)
            case ("}", let placeholder?):
                guard !placeholder.name.isEmpty else { throw SyntaxError(message: "empty placeholder '{}'", offset: placeholder.offset) }
                open = nil
            case ("}", nil):
                throw SyntaxError(message: "'}' without a matching '{'", offset: offset)
            case (_, var placeholder?):
                placeholder.name.append(character)
                open = placeholder
            case (_, nil):
                if character == "?" || character == "#" {
                    throw SyntaxError(message: "the path cannot contain '\(character)'; declare query parameters with 'in: query'", offset: offset)
                }
            }
        }
        if let placeholder = open { throw SyntaxError(message: "'{' is never closed", offset: placeholder.offset) }
        self.init(template)
    }

    /// The template as it was written, each placeholder as `{name}`, its text encoded.
    package var text: String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .placeholder(let name): "{" + name + "}"
            }
        }.joined()
    }

    /// A value a call gave no text for, or gave an empty one.
    package enum FillingError: Error, Sendable, Equatable {
        /// No value for the placeholder named.
        case missing(String)
        /// An empty value, which would name another resource (`/users/` is the collection).
        case empty(String)
    }

    /// Appends the path to `result`, each placeholder replaced by its value encoded as a path
    /// segment (`PercentEncoding.pathSegment`: a `/` stays in its segment, `.` and `..` stay
    /// names); `value(name)` gives each placeholder's text.
    package func append(to result: inout String, value: (String) -> String?) throws(FillingError) {
        for part in parts {
            switch part {
            case .text(let text):
                result += text
            case .placeholder(let name):
                guard let text = value(name) else { throw .missing(name) }
                guard !text.isEmpty else { throw .empty(name) }
                result += PercentEncoding.pathSegment(text)
            }
        }
    }

    /// Where the template's placeholders lie in `path`, a path as it is sent (percent-encoded)
    /// whose end the template is (a base URL's path may come before it): each value lies between
    /// the fixed texts around it and never holds a `/`. Matched from the end. nil when the path
    /// does not end as the template says.
    package func match(_ path: Substring) -> Match? {
        var rest = path
        var values: [(name: String, range: Range<Substring.Index>)] = []
        var remaining = parts[...]
        while let part = remaining.popLast() {
            switch part {
            case .text(let text):
                guard rest.hasSuffix(text) else { return nil }
                rest = rest.dropLast(text.count)
            case .placeholder(let name):
                // The value runs back to the fixed text before it, which ends within the value's
                // segment (or at its start), or to the segment's start.
                let segmentStart = rest.lastIndex(of: "/").map(rest.index(after:)) ?? rest.startIndex
                var start = segmentStart
                if case .text(let before)? = remaining.last {
                    guard let fixed = rest.range(of: before, options: .backwards), fixed.upperBound >= segmentStart else { return nil }
                    start = fixed.upperBound
                }
                guard start < rest.endIndex else { return nil }
                values.append((name, start..<rest.endIndex))
                rest = rest[..<start]
            }
        }
        return Match(prefix: rest, values: values.reversed())
    }

    /// Where a template's placeholders lie in a path.
    package struct Match {
        /// What comes before the template: a base URL's path, or empty.
        package let prefix: Substring
        /// Each placeholder's name and where its value lies, in the template's order.
        package let values: [(name: String, range: Range<Substring.Index>)]
    }
}
