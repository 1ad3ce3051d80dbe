import APIManifest

/// The Swift names taken in one scope (a model's fields, an API's parameters, the module's
/// types), so two manifest names that become the same Swift name are an error, not a clash in
/// generated code.
struct SwiftNames {
    let kind: String
    /// Swift names the generated code around this scope needs for itself, each with the reason.
    private let reserved: [String: String]
    private var taken: [String: Located<String>] = [:]

    init(kind: String, reserved: [String: String] = [:]) {
        self.kind = kind
        self.reserved = reserved
    }

    /// Takes `swiftName` for the manifest name `name`; false, with an error, when it is taken or
    /// reserved.
    @discardableResult
    mutating func claim(_ swiftName: String, for name: Located<String>, into diagnostics: inout Diagnostics) -> Bool {
        if let reason = reserved[swiftName] {
            diagnostics.error("\(kind) '\(name.value)' cannot have the Swift name '\(swiftName)': \(reason)", at: name.location)
            return false
        }
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

    /// `claim(_:for:into:)` for an API's parameter, which also takes `selfValue`, the property
    /// and argument a parameter named `self` is kept in.
    @discardableResult
    mutating func claimParameter(_ swiftName: String, for name: Located<String>, into diagnostics: inout Diagnostics) -> Bool {
        guard claim(swiftName, for: name, into: &diagnostics) else { return false }
        return swiftName.trimmingBackticks != "self" || claim("selfValue", for: name, into: &diagnostics)
    }

    func isTaken(_ swiftName: String) -> Bool {
        taken[swiftName] != nil
    }
}

extension SwiftNames {
    /// A model's fields: the name Swift's `Codable` synthesis gives the coding keys.
    static func fields() -> SwiftNames {
        SwiftNames(kind: "field", reserved: [
            "CodingKeys": "Codable names the type's coding keys so; give the field another name and keep its JSON key with `json: CodingKeys`",
        ])
    }

    /// An enum's cases: the name of `CaseIterable`'s list of them.
    static func enumCases() -> SwiftNames {
        SwiftNames(kind: "enum case", reserved: [
            "allCases": "CaseIterable names the list of an enum's cases so; name the case otherwise and keep its value: `enum: { everyCase: allCases }`",
        ])
    }

    /// An API's parameters, which the class's code sees in place of the names it uses itself:
    /// the API's own type, the modules it spells the runtime's types through, and `more` (the
    /// types its definition and sample name, by why).
    static func parameters(alsoReserving more: [String: String] = [:]) -> SwiftNames {
        let modules = ["APIRuntime", "APIGRPC", "APIEventStreams", "Foundation", "Swift"]
        var reserved = ["Self": "the initializer names the API's own type so; give the parameter another name and keep its wire name with `name: Self`"]
        for (name, why) in more {
            reserved[name] = "\(why); give the parameter another name and keep its wire name with `name: \(name)`"
        }
        for module in modules {
            reserved[module] = "the initializer reaches the \(module) module through this name; give the parameter another name and keep its wire name with `name: \(module)`"
        }
        return SwiftNames(kind: "parameter", reserved: reserved)
    }
}
