import APIManifest

/// The Swift names taken in one scope (a model's fields, an API's parameters, the module's
/// types), so two manifest names that become the same Swift name are an error, not a clash in
/// generated code.
struct SwiftNames {
    let kind: String
    private var taken: [String: Located<String>] = [:]

    init(kind: String) {
        self.kind = kind
    }

    /// Takes `swiftName` for the manifest name `name`; false, with an error, when it is taken.
    @discardableResult
    mutating func claim(_ swiftName: String, for name: Located<String>, into diagnostics: inout Diagnostics) -> Bool {
        guard let first = taken[swiftName] else {
            taken[swiftName] = name
            return true
        }
        if first.value == name.value {
            diagnostics.error("\(kind) '\(name.value)' is declared twice; first declared at \(first.location)", at: name.location)
        } else {
            diagnostics.error("\(kind) '\(name.value)' becomes the Swift name '\(swiftName)', which \(kind) '\(first.value)' at \(first.location) already has", at: name.location)
        }
        return false
    }

    func isTaken(_ swiftName: String) -> Bool {
        taken[swiftName] != nil
    }
}
