/// Parsed templates by name, which include each other as partials.
struct TemplateLibrary: Sendable {
    /// A partial that is missing or that would include itself, at the tag in `template`.
    struct Problem: Equatable {
        var template: String
        var line: Int
        var column: Int
        var message: String
    }

    private let templates: [String: Template]

    init(_ templates: [String: Template]) {
        self.templates = templates
    }

    /// What would go wrong rendering: a partial that does not exist (the spec renders nothing
    /// for it; a generator should say so), or one that includes itself, directly or through
    /// others, which would render until the stack ran out. Apigen's contexts are not recursive,
    /// so no data could end such a recursion.
    var problems: [Problem] {
        var problems: [Problem] = []
        for (name, template) in templates.sorted(by: { $0.key < $1.key }) {
            for partial in template.partials where templates[partial.name] == nil {
                problems.append(Problem(template: name, line: partial.line, column: partial.column, message: "includes the partial '\(partial.name)', which does not exist"))
            }
            if let cycle = cycle(from: name) {
                let include = template.partials.first { $0.name == cycle[1] }!
                let chain = cycle.joined(separator: " → ")
                problems.append(Problem(template: name, line: include.line, column: include.column, message: "includes itself (\(chain)), so rendering it would never end"))
            }
        }
        return problems
    }

    /// A chain of partials from `start` back to itself, if there is one. Each template is entered
    /// once: a template already searched cannot lead back to `start` by another way, so the
    /// search is linear in the includes, not in the paths through them (which a folder of
    /// templates that all include each other would make countless).
    private func cycle(from start: String) -> [String]? {
        var visited: Set<String> = [start]
        func search(_ path: [String]) -> [String]? {
            for partial in Set(templates[path.last!]?.partials.map(\.name) ?? []).sorted() {
                if partial == start { return path + [start] }
                guard visited.insert(partial).inserted else { continue }
                if let cycle = search(path + [partial]) { return cycle }
            }
            return nil
        }
        return search([start])
    }

    /// The text `name` renders for `context`, escaping HTML in `{{values}}` until a
    /// `{{% CONTENT_TYPE: TEXT }}` pragma (Mustache's default, kept for custom templates).
    func render(_ name: String, _ context: TemplateValue, capacity: Int = 4096) -> String {
        guard let template = templates[name] else { return "" }
        var rendering = TemplateRendering(templates: templates, context: context, capacity: capacity)
        rendering.render(template.nodes, escapesHTML: true)
        return rendering.output
    }
}
