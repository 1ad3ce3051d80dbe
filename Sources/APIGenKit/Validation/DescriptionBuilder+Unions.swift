import APIManifest

/// `oneOf:`: a value that is one of several types, told apart by a discriminator property or by
/// trying each alternative in order.
extension DescriptionBuilder {
    mutating func describeUnion(_ union: UnionDeclaration, of name: String) -> UnionDescription? {
        var caseNames = SwiftNames(kind: "alternative")
        var alternatives: [UnionDescription.Alternative] = []
        var ok = true
        for alternative in union.alternatives {
            guard case .named(let alternativeName) = alternative.value else {
                diagnostics.error("an alternative of union '\(name)' is a declared type or a scalar, not '\(alternative.value)'; declare a model for it", at: alternative.location)
                ok = false
                continue
            }
            guard let type = types.resolve(alternative, into: &diagnostics) else {
                ok = false
                continue
            }
            let caseName = SwiftIdentifier.make(from: alternativeName, capitalized: false)
            let lowered = caseName.prefix(1).lowercased() + caseName.dropFirst()
            guard caseNames.claim(lowered, for: Located(alternativeName, at: alternative.location), into: &diagnostics) else {
                ok = false
                continue
            }
            alternatives.append(.init(caseName: SwiftIdentifier.escaped(lowered), type: type))
        }
        guard ok else { return nil }
        guard let discriminator = union.discriminator else {
            return UnionDescription(alternatives: alternatives, discriminator: nil)
        }
        // Every alternative is a model with the discriminator among its fields.
        for (index, alternative) in union.alternatives.enumerated() {
            guard case .named(let alternativeName) = alternative.value,
                  let fields = modelFields(named: alternativeName)
            else {
                diagnostics.error("union '\(name)' has a discriminator, so each alternative is a model with a '\(discriminator.value)' field; '\(alternative.value)' is not a model", at: alternative.location)
                ok = false
                continue
            }
            guard let field = fields.first(where: { ($0.jsonKey?.value ?? $0.name.value) == discriminator.value }) else {
                diagnostics.error("discriminator '\(discriminator.value)' of union '\(name)' is not a field of '\(alternativeName)'; each alternative needs it", at: discriminator.location)
                ok = false
                continue
            }
            let isText = field.type.value == .named("String")
                || enumDeclaration(named: field.type.value.description).map { ($0.rawType?.value ?? "String") == "String" } ?? false
            guard isText else {
                diagnostics.error("discriminator '\(discriminator.value)' of '\(alternativeName)' is '\(field.type.value)'; it must be a String or a string enum", at: field.type.location)
                ok = false
                continue
            }
            alternatives[index].discriminatorValue = alternativeName
        }
        var values: [String: SourceLocation] = [:]
        for (value, type) in union.mapping {
            guard let index = union.alternatives.firstIndex(where: { $0.value == .named(type.value) }) else {
                diagnostics.error("'\(type.value)' in the mapping of union '\(name)' is not one of its alternatives", at: type.location)
                ok = false
                continue
            }
            if let first = values.updateValue(value.location, forKey: value.value) {
                diagnostics.error("discriminator value '\(value.value)' is mapped twice; first at \(first)", at: value.location)
                ok = false
            }
            alternatives[index].discriminatorValue = value.value
        }
        return ok ? UnionDescription(alternatives: alternatives, discriminator: discriminator.value) : nil
    }
}
