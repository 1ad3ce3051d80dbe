/// Manifest text carried into generated code as data, never as code.
enum SwiftLiteral {
    /// A double-quoted Swift string literal. Backslashes, quotes, control characters and invisible
    /// or direction-changing characters are escaped, so no text can close the literal or start an
    /// interpolation, and what a reviewer sees is what the program holds.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where needsUnicodeEscape(scalar):
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Lines of a `///` comment. Each manifest line becomes one comment line, with control and
    /// invisible characters replaced, so a description can never end the comment.
    static func docLines(_ text: String?) -> [String] {
        guard let text else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.unicodeScalars.map { needsUnicodeEscape($0) || $0 == "\r" ? " " : $0 }))
                .replacingTrailingSpaces()
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Text for one line of a `//` comment, such as a manifest's file name: control and invisible
    /// characters, line breaks among them, spelled `\u{…}`, so a name can never end the comment.
    static func commentLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsUnicodeEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if needsUnicodeEscape(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Control characters, and format characters such as right-to-left overrides and zero-width spaces.
    static func needsUnicodeEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return true
        default:
            return false
        }
    }

    /// A `Duration` expression: `.seconds(30)`, or `.milliseconds(1500)` for fractions.
    static func duration(seconds: Double) -> String {
        if seconds == seconds.rounded(), seconds < 1e12 { return ".seconds(\(Int(seconds)))" }
        return ".milliseconds(\(Int((seconds * 1000).rounded())))"
    }
}

private extension String {
    func replacingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
