import Foundation

/// Reads Mustache text (https://github.com/mustache/spec: interpolation, sections, inverted
/// sections, comments, partials, set delimiters) plus swift-mustache's `{{% CONTENT_TYPE: … }}`
/// pragma and transforms. Works on UTF-8 bytes; every tag's syntax is Mustache's ASCII.
struct TemplateParser {
    private let source: [UInt8]
    private var position = 0
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)
    /// The sections open at `position`, outermost first; the first is the template itself.
    private var frames = [Frame(name: "", subject: nil, inverted: false, offset: 0)]
    private(set) var partials: [(name: String, line: Int, column: Int)] = []

    /// How deep sections may nest; apigen's own templates nest four deep.
    static let maximumNesting = 100

    private struct Frame {
        var name: String
        var subject: TemplateName?
        var inverted: Bool
        var offset: Int
        var nodes: [TemplateNode] = []
    }

    /// A tag's kind, from the character after the opening delimiter.
    private enum Kind {
        case value(escaped: Bool), section(inverted: Bool), close, comment, partial, delimiters, pragma

        /// Kinds alone on their line take the line with them (the spec's "standalone" tags).
        var canStandAlone: Bool {
            if case .value = self { return false }
            return true
        }
    }

    init(_ text: String) {
        source = Array(text.utf8)
    }

    mutating func parse() throws(TemplateSyntaxError) -> [TemplateNode] {
        while let tagStart = find(open, from: position) {
            var cursor = tagStart + open.count
            let kind: Kind
            var closing = close
            switch cursor < source.count ? source[cursor] : 0 {
            case UInt8(ascii: "{"): kind = .value(escaped: false); closing = [UInt8(ascii: "}")] + close
            case UInt8(ascii: "&"): kind = .value(escaped: false)
            case UInt8(ascii: "#"): kind = .section(inverted: false)
            case UInt8(ascii: "^"): kind = .section(inverted: true)
            case UInt8(ascii: "/"): kind = .close
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: ">"): kind = .partial
            case UInt8(ascii: "="): kind = .delimiters; closing = [UInt8(ascii: "=")] + close
            case UInt8(ascii: "%"): kind = .pragma
            case UInt8(ascii: "<"), UInt8(ascii: "$"):
                throw error("template inheritance ('\(character(at: cursor))' tags) is not supported", at: tagStart)
            default: kind = .value(escaped: true); cursor -= 1
            }
            cursor += 1
            guard let contentEnd = find(closing, from: cursor) else {
                throw error("tag is not closed: no '\(String(decoding: closing, as: UTF8.self))' after it", at: tagStart)
            }
            let tagEnd = contentEnd + closing.count
            let content = String(decoding: source[cursor..<contentEnd], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)

            // A standalone tag's line (its indentation and line ending) is not output.
            var textEnd = tagStart
            var indentation = ""
            var next = tagEnd
            if kind.canStandAlone, let lineStart = standaloneLineStart(before: tagStart), let lineEnd = standaloneLineEnd(after: tagEnd) {
                textEnd = lineStart
                indentation = String(decoding: source[lineStart..<tagStart], as: UTF8.self)
                next = lineEnd
            }
            if position < textEnd {
                frames[frames.count - 1].nodes.append(.text(String(decoding: source[position..<textEnd], as: UTF8.self)))
            }
            position = next
            try handle(kind, content, at: tagStart, indentation: indentation)
        }
        if position < source.count {
            frames[frames.count - 1].nodes.append(.text(String(decoding: source[position...], as: UTF8.self)))
        }
        if frames.count > 1, let open = frames.last {
            throw error("section '\(open.name)' is not closed: no {{/\(open.name)}}", at: open.offset)
        }
        return frames[0].nodes
    }

    private mutating func handle(_ kind: Kind, _ content: String, at offset: Int, indentation: String) throws(TemplateSyntaxError) {
        switch kind {
        case .value(let escaped):
            frames[frames.count - 1].nodes.append(.value(try name(content, at: offset), escaped: escaped))
        case .section(let inverted):
            // Rendering recurses once a section: a bound keeps a hostile template from overflowing the stack.
            guard frames.count <= Self.maximumNesting else {
                throw error("sections nest more than \(Self.maximumNesting) deep", at: offset)
            }
            frames.append(Frame(name: content, subject: try name(content, at: offset), inverted: inverted, offset: offset))
        case .close:
            guard frames.count > 1, let section = frames.last, let subject = section.subject else {
                throw error("'{{/\(content)}}' closes no open section", at: offset)
            }
            guard section.name == content else {
                let (line, _) = lineAndColumn(of: section.offset)
                throw error("'{{/\(content)}}' does not close the open section '\(section.name)' (line \(line))", at: offset)
            }
            frames.removeLast()
            frames[frames.count - 1].nodes.append(.section(subject, body: section.nodes, inverted: section.inverted))
        case .comment:
            break
        case .partial:
            guard !content.isEmpty, !content.contains(where: \.isWhitespace), !content.hasPrefix("*") else {
                throw error("'{{>\(content)}}' does not name a partial (dynamic names are not supported)", at: offset)
            }
            let (line, column) = lineAndColumn(of: offset)
            partials.append((content, line, column))
            frames[frames.count - 1].nodes.append(.partial(content, indentation: indentation))
        case .delimiters:
            let parts = content.split(whereSeparator: \.isWhitespace)
            guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
                throw error("'{{=\(content)=}}' should set two delimiters, as in {{=<% %>=}}", at: offset)
            }
            open = Array(parts[0].utf8)
            close = Array(parts[1].utf8)
        case .pragma:
            let parts = content.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard parts.count == 2, parts[0] == "CONTENT_TYPE", parts[1] == "TEXT" || parts[1] == "HTML" else {
                throw error("unknown pragma '\(content)': apigen knows CONTENT_TYPE: TEXT and CONTENT_TYPE: HTML", at: offset)
            }
            frames[frames.count - 1].nodes.append(.escapesHTML(parts[1] == "HTML"))
        }
    }

    /// `name`, `a.b`, `.`, `f(name)`, `f(g(name))` or `f()`.
    private func name(_ text: String, at offset: Int) throws(TemplateSyntaxError) -> TemplateName {
        var rest = Substring(text)
        var transforms: [TemplateTransform] = []
        while let parenthesis = rest.firstIndex(of: "(") {
            guard rest.hasSuffix(")") else { throw error("'\(text)' should be written transform(name)", at: offset) }
            let function = rest[..<parenthesis]
            guard let transform = TemplateTransform(rawValue: String(function)) else {
                let known = TemplateTransform.allCases.map(\.rawValue).joined(separator: ", ")
                throw error("unknown transform '\(function)' (known: \(known))", at: offset)
            }
            transforms.insert(transform, at: 0)
            rest = rest[rest.index(after: parenthesis)..<rest.index(before: rest.endIndex)]
        }
        if rest.isEmpty, !transforms.isEmpty { return TemplateName(subject: .listPosition, transforms: transforms) }
        if rest == "." { return TemplateName(subject: .current, transforms: transforms) }
        let path = rest.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.contains(where: { $0.isEmpty || $0.contains(where: { $0.isWhitespace || "(){}".contains($0) }) }) else {
            throw error(rest.isEmpty ? "tag has no name" : "'\(text)' is not a name", at: offset)
        }
        return TemplateName(subject: .path(path), transforms: transforms)
    }

    // MARK: Bytes

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= source.count else { return nil }
        var index = start
        while index <= source.count - needle.count {
            if source[index] == first, source[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Where the tag's line starts, if only spaces and tabs come before the tag on it.
    private func standaloneLineStart(before tagStart: Int) -> Int? {
        var index = tagStart
        while index > 0 {
            switch source[index - 1] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): index -= 1
            case UInt8(ascii: "\n"): return index
            default: return nil
            }
        }
        return 0
    }

    /// Where the next line starts, if only spaces and tabs follow the tag on its line.
    private func standaloneLineEnd(after tagEnd: Int) -> Int? {
        var index = tagEnd
        while index < source.count {
            switch source[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): index += 1
            case UInt8(ascii: "\n"): return index + 1
            case UInt8(ascii: "\r") where index + 1 < source.count && source[index + 1] == UInt8(ascii: "\n"): return index + 2
            default: return nil
            }
        }
        return index
    }

    private func character(at offset: Int) -> Character {
        Character(Unicode.Scalar(source[offset]))
    }

    private func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where source[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, String(decoding: source[lineStart..<offset], as: UTF8.self).count + 1)
    }

    private func error(_ message: String, at offset: Int) -> TemplateSyntaxError {
        let (line, column) = lineAndColumn(of: offset)
        return TemplateSyntaxError(message: message, line: line, column: column)
    }
}
