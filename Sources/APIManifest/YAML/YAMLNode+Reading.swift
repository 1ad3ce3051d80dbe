/// Typed reads of scalar nodes. Each reports a diagnostic at the node and returns nil on a mismatch,
/// so a reader can go on and find the file's other errors.
extension YAMLNode {
    /// A non-empty string scalar. `what` names the value in messages ("the base URL").
    public func string(_ what: String, into diagnostics: inout Diagnostics) -> Located<String>? {
        guard let text = scalarText, !isNull else {
            diagnostics.error("\(what) must be a string, found \(shapeName)", at: location)
            return nil
        }
        return Located(text, at: location)
    }

    /// A string scalar that may be empty (a class prefix, say).
    public func possiblyEmptyString(_ what: String, into diagnostics: inout Diagnostics) -> Located<String>? {
        if isNull { return Located("", at: location) }
        return string(what, into: &diagnostics)
    }

    public func integer(_ what: String, into diagnostics: inout Diagnostics) -> Located<Int>? {
        guard let text = scalarText, let value = Int(text) else {
            diagnostics.error("\(what) must be a whole number, found \(describedValue)", at: location)
            return nil
        }
        return Located(value, at: location)
    }

    /// Any finite number, negative ones included (the validator decides what range makes sense).
    public func number(_ what: String, into diagnostics: inout Diagnostics) -> Located<Double>? {
        guard let text = scalarText, let value = Double(text), value.isFinite else {
            diagnostics.error("\(what) must be a number, found \(describedValue)", at: location)
            return nil
        }
        return Located(value, at: location)
    }

    /// The longest duration a manifest may give: a century, in seconds. A longer one is a slip, and
    /// would not fit the generated `Duration` literal.
    public static let longestSeconds: Double = 3_153_600_000

    /// A number of seconds: a whole or decimal number, from a millisecond to a century.
    public func seconds(_ what: String, into diagnostics: inout Diagnostics) -> Located<Double>? {
        guard let text = scalarText, let value = Double(text), value.isFinite else {
            diagnostics.error("\(what) must be a number of seconds, found \(describedValue)", at: location)
            return nil
        }
        guard value > 0 else {
            diagnostics.error("\(what) must be greater than zero, found \(text)", at: location)
            return nil
        }
        // Generated code counts in milliseconds: less would round to no time at all.
        guard value >= 0.001 else {
            diagnostics.error("\(what) must be at least 0.001 seconds (a millisecond), found \(text)", at: location)
            return nil
        }
        return checkedLength(Located(value, at: location), what, into: &diagnostics)
    }

    /// A number of seconds the validator judges further (a negative delay is its error), at most
    /// a century, and zero (where `zeroAllowed`) or at least a millisecond: generated code counts
    /// in milliseconds, so less would become zero, and a zero `per` would turn a rate limit off.
    public func duration(_ what: String, zeroAllowed: Bool = true, into diagnostics: inout Diagnostics) -> Located<Double>? {
        guard let value = number(what, into: &diagnostics) else { return nil }
        if value.value > 0, value.value < 0.001 {
            let floor = zeroAllowed ? "0 or at least 0.001 seconds (a millisecond)" : "at least 0.001 seconds (a millisecond)"
            diagnostics.error("\(what) must be \(floor), found \(scalarText ?? "\(value.value)"): generated code counts whole milliseconds, so it would become 0", at: location)
            return nil
        }
        return checkedLength(value, what, into: &diagnostics)
    }

    private func checkedLength(_ seconds: Located<Double>, _ what: String, into diagnostics: inout Diagnostics) -> Located<Double>? {
        guard seconds.value <= Self.longestSeconds else {
            diagnostics.error("\(what) must be at most \(Int(Self.longestSeconds)) seconds (a century), found \(scalarText ?? describedValue)", at: location)
            return nil
        }
        return seconds
    }

    public func boolean(_ what: String, into diagnostics: inout Diagnostics) -> Located<Bool>? {
        switch scalarText {
        case "true": return Located(true, at: location)
        case "false": return Located(false, at: location)
        default:
            diagnostics.error("\(what) must be true or false, found \(describedValue)", at: location)
            return nil
        }
    }

    /// The JSON text this node spells: plain scalars are numbers, booleans or null when they read
    /// as such, quoted ones are strings; mappings become objects with sorted keys.
    public func jsonText(into diagnostics: inout Diagnostics) -> String? {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain {
                if isNull { return "null" }
                if scalar.string == "true" || scalar.string == "false" { return scalar.string }
                // A number already in JSON's grammar keeps its text, every digit of it (a Decimal's,
                // an integer past 64 bits); YAML's other spellings go through their value.
                if scalar.string.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil { return scalar.string }
                if let integer = Int64(scalar.string) { return String(integer) }
                if let number = Double(scalar.string), number.isFinite, scalar.string.first != "." { return String(number) }
            }
            return JSONString.quoted(scalar.string)
        case .sequence:
            var items: [String] = []
            for item in sequence ?? [] {
                guard let text = item.jsonText(into: &diagnostics) else { return nil }
                items.append(text)
            }
            return "[" + items.joined(separator: ",") + "]"
        case .mapping:
            var members: [(String, String)] = []
            for entry in mapping?.entries ?? [] {
                guard let text = entry.value.jsonText(into: &diagnostics) else { return nil }
                members.append((entry.key.value, text))
            }
            return "{" + members.sorted { $0.0 < $1.0 }.map { JSONString.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        case .alias:
            diagnostics.error("YAML aliases are not supported here", at: location)
            return nil
        }
    }

    /// One of a fixed set of keywords, with a did-you-mean when it is misspelled.
    public func keyword<K: ManifestKeyword>(_: K.Type, _ what: String, into diagnostics: inout Diagnostics) -> Located<K>? {
        guard let text = string(what, into: &diagnostics) else { return nil }
        if let keyword = K(rawValue: text.value) { return Located(keyword, at: location) }
        let names = K.allCases.map(\.rawValue)
        diagnostics.error(
            "unknown \(what) '\(text.value)'\(Suggestion.hint(for: text.value, in: names)); expected one of: \(names.joined(separator: ", "))",
            at: location
        )
        return nil
    }

    /// A mapping of names to strings, such as headers. Keys keep their order and locations.
    public func stringPairs(_ what: String, into diagnostics: inout Diagnostics) -> [(name: Located<String>, value: Located<String>)] {
        guard let mapping = requireMapping(what, into: &diagnostics) else { return [] }
        return mapping.entries.compactMap { entry in
            guard let value = entry.value.possiblyEmptyString("the value of '\(entry.key.value)'", into: &diagnostics) else {
                return nil
            }
            return (entry.key, value)
        }
    }

    public func requireMapping(_ what: String, into diagnostics: inout Diagnostics) -> YAMLMapping? {
        if let mapping { return mapping }
        diagnostics.error("\(what) must be a mapping, found \(shapeName)", at: location)
        return nil
    }

    /// How a value looks in a message: its text for scalars, its shape otherwise.
    var describedValue: String {
        if let text = scalarText, !isNull { return "'\(text)'" }
        return shapeName
    }
}

/// A closed set of words a manifest may use for one setting (`method: GET`, `in: query`).
public protocol ManifestKeyword: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {}

/// JSON string literals, escaped as RFC 8259 requires.
enum JSONString {
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
