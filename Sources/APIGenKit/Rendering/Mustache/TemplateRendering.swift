/// One render of a template into a string: the context stack, the list positions `first()` and
/// the like read, and the indentation of the standalone partials being rendered.
struct TemplateRendering {
    private let templates: [String: Template]
    private(set) var output = ""
    private var stack: [TemplateValue]
    private var positions: [(index: Int, count: Int)] = []
    /// What every line a standalone partial renders starts with: the whitespace before its tag,
    /// and before the tags of the partials that include it.
    private var indentation = ""

    init(templates: [String: Template], context: TemplateValue, capacity: Int) {
        self.templates = templates
        self.stack = [context]
        output.reserveCapacity(capacity)
    }

    mutating func render(_ nodes: [TemplateNode], escapesHTML initial: Bool) {
        var escapesHTML = initial
        for node in nodes {
            switch node {
            case .text(let text):
                writeText(text)
            case .value(let name, let escaped):
                guard let value = resolve(name) else { continue }
                switch value {
                case .string(let text): escaped && escapesHTML ? writeEscaped(text) : writeValue(text)
                case .int(let number): writeValue(String(number))
                case .bool(let flag): writeValue(flag ? "true" : "false")
                case .list, .object: continue  // Nothing a template could mean by it.
                }
            case .section(let name, let body, let inverted):
                let value = resolve(name)
                if inverted {
                    if !TemplateValue.isTruthy(value) { render(body, escapesHTML: escapesHTML) }
                    continue
                }
                switch value {
                case nil, .bool(false): continue
                case .bool(true): render(body, escapesHTML: escapesHTML)
                case .list(let items):
                    for (index, item) in items.enumerated() {
                        stack.append(item)
                        positions.append((index, items.count))
                        render(body, escapesHTML: escapesHTML)
                        positions.removeLast()
                        stack.removeLast()
                    }
                case let value?:
                    stack.append(value)
                    render(body, escapesHTML: escapesHTML)
                    stack.removeLast()
                }
            case .partial(let name, let partialIndentation):
                // The library refuses missing partials and cycles when it loads.
                guard let partial = templates[name] else { continue }
                let outer = indentation
                indentation += partialIndentation
                render(partial.nodes, escapesHTML: escapesHTML)
                indentation = outer
            case .escapesHTML(let flag):
                escapesHTML = flag
            }
        }
    }

    // MARK: Names

    private func resolve(_ name: TemplateName) -> TemplateValue? {
        var value: TemplateValue?
        var transforms = name.transforms[...]
        switch name.subject {
        case .current:
            value = stack.last
        case .path(let path):
            value = lookUp(path[0])
            for key in path.dropFirst() {
                guard case .object(let fields)? = value else { return nil }
                value = fields[key]
            }
        case .listPosition:
            // The innermost transform reads the position itself: `first()`, `index()`.
            guard let position = positions.last, let first = transforms.popFirst() else { return nil }
            value = first.apply(toPosition: position.index, of: position.count)
        }
        for transform in transforms { value = value.flatMap(transform.apply) }
        return value
    }

    /// The innermost object on the stack that has `key`.
    private func lookUp(_ key: String) -> TemplateValue? {
        for frame in stack.reversed() {
            if case .object(let fields) = frame, let value = fields[key] { return value }
        }
        return nil
    }

    // MARK: Output

    /// A template's text: inside a standalone partial, every line it starts is indented.
    private mutating func writeText(_ text: String) {
        guard !indentation.isEmpty, !text.isEmpty else {
            output += text
            return
        }
        var start = text.utf8.startIndex
        for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "\n") {
            let next = text.utf8.index(after: index)
            writeLine(text[start..<next])
            start = next
        }
        if start < text.utf8.endIndex { writeLine(text[start...]) }
    }

    /// A value: indented where it starts a line, but its own line breaks are not (the spec's
    /// "Standalone Indentation": a value is not template text).
    private mutating func writeValue(_ text: String) {
        guard !indentation.isEmpty, !text.isEmpty else {
            output += text
            return
        }
        writeLine(Substring(text))
    }

    private mutating func writeLine(_ line: Substring) {
        if output.isEmpty || output.utf8.last == UInt8(ascii: "\n") { output += indentation }
        output += line
    }

    private mutating func writeEscaped(_ text: String) {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }) else {
            return writeValue(text)
        }
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        writeValue(escaped)
    }
}
