/// An API's path template (`/items/{id}/parts/{part}`), split once, when its definition is made,
/// into fixed text already percent-encoded and the names of its placeholders, so that a call only
/// appends rather than searches the template.
struct PathTemplate: Sendable {
    enum Part: Equatable, Sendable {
        /// Fixed text, percent-encoded as RFC 3986 allows in a path.
        case text(String)
        /// A `{name}` placeholder.
        case placeholder(String)
    }

    let parts: [Part]

    /// A template that does not start with `/` gets one, unless it is empty. A `{` with no `}`
    /// after it is fixed text.
    init(_ template: String) {
        var parts: [Part] = []
        var text = template.isEmpty || template.hasPrefix("/") ? "" : "/"
        // Searched as UTF-8 bytes, not by `Character` (grapheme breaking): see CallIdentity.canonicalURL.
        var rest = template[...]
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "{")),
              let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: "}")) {
            text += rest[..<open]
            if !text.isEmpty { parts.append(.text(PercentEncoding.pathText(text))) }
            text = ""
            parts.append(.placeholder(String(rest[rest.utf8.index(after: open)..<close])))
            rest = rest[rest.utf8.index(after: close)...]
        }
        text += rest
        if !text.isEmpty { parts.append(.text(PercentEncoding.pathText(text))) }
        self.parts = parts
    }

    /// Appends the path, each placeholder replaced by its percent-encoded value; the last value
    /// given for a name wins, as a dictionary's would.
    func append(to result: inout String, values: [(name: String, value: String)], api: String) throws(APIError) {
        for part in parts {
            switch part {
            case .text(let text):
                result += text
            case .placeholder(let name):
                guard let value = values.last(where: { $0.name == name })?.value else {
                    throw APIError(api: api, reason: .invalidRequest(message: "no value for path parameter '\(name)'"))
                }
                // `/users/` is the collection on lenient routers: another resource. (`.` and `..`
                // are escaped as `%2E` by `pathSegment`, so they stay a name.)
                guard !value.isEmpty else {
                    throw APIError(api: api, reason: .invalidRequest(message: "path parameter '\(name)' is empty, which would name another resource"))
                }
                result += PercentEncoding.pathSegment(value)
            }
        }
    }
}
