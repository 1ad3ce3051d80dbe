/// A parsed Mustache template: its text and tags as a tree, parsed once and rendered for every
/// file. Standalone tags' lines are already gone and `{{=<% %>=}}` already applied.
struct Template: Sendable {
    let nodes: [TemplateNode]
    /// Every partial it includes, for the library's checks of missing partials and cycles.
    let partials: [(name: String, line: Int, column: Int)]

    init(_ text: String) throws(TemplateSyntaxError) {
        var parser = TemplateParser(text)
        nodes = try parser.parse()
        partials = parser.partials
    }
}

indirect enum TemplateNode: Sendable {
    case text(String)
    /// `{{name}}` (escaped unless the content type is text) or `{{{name}}}` / `{{&name}}`.
    case value(TemplateName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(TemplateName, body: [TemplateNode], inverted: Bool)
    /// `{{>name}}`; a standalone one indents every line it renders by the whitespace before it.
    case partial(String, indentation: String)
    /// `{{% CONTENT_TYPE: TEXT }}` or `HTML`: whether the tags after it escape HTML.
    case escapesHTML(Bool)
}

/// A tag's name: `.`, `a`, `a.b.c`, with transforms around it: `uppercased(name)`,
/// `reversed(sorted(list))`, or `first()` (the position in the innermost list being rendered).
struct TemplateName: Sendable {
    enum Subject: Sendable {
        /// `.`: the value on top of the context stack.
        case current
        /// `a.b.c`: `a` looked up through the stack, then `b` and `c` inside it.
        case path([String])
        /// `first()` and the like: the position in the innermost list section.
        case listPosition
    }

    var subject: Subject
    /// Applied innermost first: `a(b(x))` is `[b, a]`.
    var transforms: [TemplateTransform]
}

/// A template that does not parse, at the line and column where its problem is.
struct TemplateSyntaxError: Error, Sendable, Equatable {
    var message: String
    var line: Int
    var column: Int
}
