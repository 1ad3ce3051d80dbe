import APIManifest

/// Resolves manifest type expressions against the scalars and the workspace's declared models.
struct TypeResolver {
    /// The scalar types a manifest may name, and whether each needs Foundation.
    static let scalars: [String: Bool] = [
        "String": false, "Int": false, "Int32": false, "Int64": false, "Double": false, "Float": false, "Decimal": true,
        "Bool": false, "Date": true, "CalendarDate": false, "URL": true, "UUID": true, "Data": true, "JSON": false, "File": false,
    ]

    /// `JSON` (any JSON value) is spelled `JSONValue` in Swift, and `File` (a file to upload)
    /// `UploadFile`; they and `CalendarDate` come from APIRuntime, which generated code names in
    /// full so that no manifest type can stand in for them.
    static let swiftSpelling = [
        "JSON": "APIRuntime.JSONValue", "File": "APIRuntime.UploadFile", "CalendarDate": "APIRuntime.CalendarDate",
    ]

    enum NamedKind: Equatable {
        case scalar
        case model
        case enumeration
        /// `oneOf:`: an enum with a case per alternative.
        case union
        /// `swift:`: a type of the app's own; only ever JSON.
        case external
    }

    /// Declared types by manifest name: their Swift name and kind.
    private(set) var declared: [String: (swiftName: String, kind: NamedKind)] = [:]
    /// Declared types' manifest names by Swift name, so that an API's class name is checked
    /// against them in one lookup rather than a scan per API, which would make validation
    /// quadratic.
    private(set) var manifestNames: [String: String] = [:]
    /// Manifest names of the models some field, parameter or response uses.
    private(set) var referenced: Set<String> = []

    mutating func declare(_ name: String, swiftName: String, kind: NamedKind) {
        declared[name] = (swiftName, kind)
        manifestNames[swiftName] = name
    }

    func kind(of name: String) -> NamedKind? {
        if Self.scalars[name] != nil { return .scalar }
        return declared[name]?.kind
    }

    /// The Swift type for `expression`, or nil after reporting every unknown name in it, and a
    /// `File` where no file can go (anywhere but a multipart part).
    mutating func resolve(_ expression: Located<TypeExpression>, allowingFile: Bool = false, into diagnostics: inout Diagnostics) -> SwiftType? {
        var ok = true
        if !allowingFile, expression.value.names.contains("File") {
            diagnostics.error("'File' is a file to upload and can only be a part of 'body: multipart'; to send a file as the whole body, use 'body: bytes'", at: expression.location)
            ok = false
        }
        for name in expression.value.names where kind(of: name) == nil {
            let candidates = Array(Self.scalars.keys) + Array(declared.keys)
            diagnostics.error(
                "unknown type '\(name)'\(Suggestion.hint(for: name, in: candidates.sorted())); declare it under 'types:' or use one of: \(Self.scalars.keys.sorted().joined(separator: ", "))",
                at: expression.location
            )
            ok = false
        }
        guard ok else { return nil }
        for name in expression.value.names where declared[name] != nil { referenced.insert(name) }
        return SwiftType(
            spelling: spelling(expression.value),
            isOptional: expression.value.isOptional,
            needsFoundation: expression.value.names.contains { Self.scalars[$0] == true },
            expression: expression.value
        )
    }

    private func spelling(_ expression: TypeExpression) -> String {
        switch expression {
        case .named(let name): return declared[name]?.swiftName ?? Self.swiftSpelling[name] ?? name
        case .optional(let wrapped): return spelling(wrapped) + "?"
        case .array(let element): return "[" + spelling(element) + "]"
        case .dictionary(let value): return "[String: " + spelling(value) + "]"
        }
    }

    /// Whether a value of this type can travel as text: a scalar or an enum, optionally optional,
    /// and when `allowArrays`, a list of those.
    func isTextual(_ expression: TypeExpression, allowArrays: Bool) -> Bool {
        switch expression.unwrapped {
        case .named(let name): return [.scalar, .enumeration].contains(kind(of: name)) && !["File", "JSON"].contains(name)
        case .array(let element): return allowArrays && isTextual(element, allowArrays: false) && !element.isOptional
        case .optional, .dictionary: return false
        }
    }
}
