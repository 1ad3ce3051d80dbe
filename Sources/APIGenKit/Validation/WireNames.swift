import APIManifest

/// The names an API's values travel under, per place (query, header, body), so that two values
/// sent under one name are an error rather than one of them lost on the wire. Header names are
/// compared without case, as HTTP compares them.
struct WireNames {
    private var taken: [String: (owner: String, location: SourceLocation)] = [:]

    /// Takes `wireName` in `place` for `owner` (such as "parameter 'limit'"); false, with an
    /// error, when another value already travels under it there.
    @discardableResult
    mutating func claim(_ wireName: Located<String>, in place: ParameterLocation, for owner: String, into diagnostics: inout Diagnostics) -> Bool {
        let key = "\(place.rawValue):" + (place == .header ? wireName.value.lowercased() : wireName.value)
        guard let first = taken[key] else {
            taken[key] = (owner, wireName.location)
            return true
        }
        let what = switch place {
        case .header: "the header '\(wireName.value)', which \(first.owner) at \(first.location) already sends (header names ignore case)"
        case .body: "the body field '\(wireName.value)', which \(first.owner) at \(first.location) already sends"
        case .query, .path: "the query item '\(wireName.value)', which \(first.owner) at \(first.location) already sends"
        }
        diagnostics.error("\(owner) sends \(what): one of the two values would be lost", at: wireName.location)
        return false
    }
}
