import APIManifest

/// The importer's diagnostics, each at a JSON pointer of the document and printed with its line:
/// `petstore.yaml:41:9: warning: #/paths/~1pets/get/parameters/0: ...`.
struct ImportDiagnostics {
    let sourceMap: SourceMap
    private(set) var diagnostics = Diagnostics()
    /// Keywords the manifests have no equivalent for (constraints the client does not check),
    /// counted by keyword and reported once each with the first place they appear.
    private var ignoredKeywords: [String: (first: JSONPointer, count: Int)] = [:]
    /// Warnings given, so one found again from another place (a path's server, read for each of
    /// its operations) is reported once.
    private var warned: Set<String> = []

    init(sourceMap: SourceMap) {
        self.sourceMap = sourceMap
    }

    mutating func error(_ message: String, at pointer: JSONPointer) {
        diagnostics.error("\(pointer): \(message)", at: sourceMap.location(of: pointer))
    }

    mutating func warning(_ message: String, at pointer: JSONPointer) {
        guard warned.insert("\(pointer) \(message)").inserted else { return }
        diagnostics.warning("\(pointer): \(message)", at: sourceMap.location(of: pointer))
    }

    mutating func ignored(keyword: String, at pointer: JSONPointer) {
        if let seen = ignoredKeywords[keyword] {
            ignoredKeywords[keyword] = (seen.first, seen.count + 1)
        } else {
            ignoredKeywords[keyword] = (pointer, 1)
        }
    }

    /// Every diagnostic, the summary of ignored keywords included.
    func finished() -> Diagnostics {
        var all = diagnostics
        for (keyword, seen) in ignoredKeywords.sorted(by: { $0.key < $1.key }) {
            let places = seen.count == 1 ? "" : " (and \(seen.count - 1) more place\(seen.count == 2 ? "" : "s"))"
            all.warning(
                "\(seen.first): '\(keyword)' has no equivalent in a manifest; the client does not check it\(places)",
                at: sourceMap.location(of: seen.first)
            )
        }
        return all
    }
}
