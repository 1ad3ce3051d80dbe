import NIOConcurrencyHelpers

/// The definition of each generated API class, made by its first instance and shared by the rest.
///
/// Generated classes pass their definition to `BaseAPI.init(definedOnce:response:request:)` as an
/// expression, which runs once per class. They used to keep it in a `static let` each, and a
/// lazily initialized global costs a file its token, initializer, addressor, getter and property
/// descriptor. With the builder chained instead of filled in a closure, 25 files of APIs compile
/// to 2 % fewer instructions (docs/ARCHITECTURE.md), for a lookup here per instance.
enum DefinitionCache {
    /// Guards the definitions, by class.
    private static let definitions = NIOLockedValueBox<[ObjectIdentifier: APIDefinition]>([:])

    /// The definition kept for `type`, or the one `make` makes, kept from now on. `make` runs
    /// outside the lock; when two first instances race, the first to finish wins for both.
    static func definition(for type: AnyObject.Type, _ make: () -> APIDefinition) -> APIDefinition {
        let key = ObjectIdentifier(type)
        if let kept = definitions.withLockedValue({ $0[key] }) { return kept }
        let made = make()
        return definitions.withLockedValue { definitions in
            if let kept = definitions[key] { return kept }
            definitions[key] = made
            return made
        }
    }
}
