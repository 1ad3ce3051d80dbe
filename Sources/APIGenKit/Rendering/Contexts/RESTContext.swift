import APIManifest

/// What `rest.mustache` reads besides `APIContext`: the method and path.
struct RESTContext: TemplateContext {
    /// The HTTP method, `GET`.
    var method: String
    /// The `HTTPRequest.Method` case, `get`.
    var methodCase: String
    /// The path as a comment shows it.
    var path: String
    /// The path, a string literal.
    var pathLiteral: String
    /// The one-line description the doc comment ends in: the method and path.
    var summary: String

    init(_ rest: RESTDescription) {
        method = rest.method.rawValue
        methodCase = rest.method.rawValue.lowercased()
        path = SwiftLiteral.docLines(rest.path).joined()
        pathLiteral = SwiftLiteral.string(rest.path)
        summary = "`\(rest.method.rawValue) \(path)`"
    }
}
