import APIManifest

/// Which way values flow through a type: an app sends it (a parameter, a request model), reads
/// it (a reply), or both. A change breaks or not by the way it flows: a reply's field may narrow,
/// a parameter may widen.
struct TypeUse: OptionSet, Sendable {
    let rawValue: Int
    /// Apps send it and servers read it.
    static let request = TypeUse(rawValue: 1)
    /// Servers send it and apps read it.
    static let response = TypeUse(rawValue: 2)
    static let both: TypeUse = [.request, .response]
    /// Apps send it as text (a path segment, a query item, a header): sent, and any scalar's
    /// text is a `String`'s.
    static let text: TypeUse = [.request, TypeUse(rawValue: 4)]
}

/// How a new type relates to an old one, as JSON values go: the same, accepting more (`Int` to
/// `Double`, `T` to `T?`, an enum to its raw type), accepting less, or another type.
enum TypeRelation: Equatable {
    case same, wider, narrower, other

    /// `new` against `old`; model and enum names are compared as names, their members elsewhere.
    init(from old: TypeExpression, to new: TypeExpression, enums: [String: String]) {
        switch (old, new) {
        case (.optional(let old), .optional(let new)), (.array(let old), .array(let new)), (.dictionary(let old), .dictionary(let new)):
            self.init(from: old, to: new, enums: enums)
        case (.optional(let old), _):
            // Nil is gone: at most narrower.
            let inner = TypeRelation(from: old, to: new, enums: enums)
            self = inner == .same || inner == .narrower ? .narrower : .other
        case (_, .optional(let new)):
            let inner = TypeRelation(from: old, to: new, enums: enums)
            self = inner == .same || inner == .wider ? .wider : .other
        case (.named(let old), .named(let new)):
            if old == new {
                self = .same
            } else if Self.widens(old, to: new, enums: enums) {
                self = .wider
            } else if Self.widens(new, to: old, enums: enums) {
                self = .narrower
            } else {
                self = .other
            }
        default:
            self = .other
        }
    }

    /// Whether every JSON value of the scalar or enum `narrow` is one of `wide`.
    private static func widens(_ narrow: String, to wide: String, enums: [String: String]) -> Bool {
        if let raw = enums[narrow], raw == wide || (raw != "String" && Self.widerNumbers[raw, default: []].contains(wide)) { return true }
        return Self.widerNumbers[narrow, default: []].contains(wide)
    }

    /// Number types and the types that hold all their values as JSON writes them.
    private static let widerNumbers: [String: Set<String>] = [
        "Int32": ["Int", "Int64", "Double", "Decimal"],
        "Int": ["Int64", "Double", "Decimal"],
        "Int64": ["Int", "Double", "Decimal"],
        "Float": ["Double", "Decimal"],
        "Double": ["Decimal"],
    ]

    /// Whether a value flowing as `use` breaks what was built from the old type: a request type
    /// may widen (servers take what apps sent before), a reply type may narrow (apps read what
    /// servers send now), a type flowing both ways may do neither.
    func breaks(_ use: TypeUse) -> Bool {
        switch self {
        case .same: false
        case .other: true
        case .wider: use.contains(.response)
        case .narrower: use.contains(.request)
        }
    }

    /// Why, in words, for a change that `breaks(use)`, or that does not.
    func reason(_ use: TypeUse) -> String {
        switch self {
        case .same: ""
        case .other: "another type"
        case .wider where use.contains(.response): "wider: apps already shipped cannot read every value it may hold"
        case .wider: "wider: it takes every value it took"
        case .narrower where use.contains(.request): "narrower: apps already shipped may send what it no longer takes"
        case .narrower: "narrower: apps already shipped read every value it may hold"
        }
    }
}
