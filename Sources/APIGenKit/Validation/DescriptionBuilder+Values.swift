import APIWireFormat
import APIManifest
import Foundation

/// `default:`, `format:` and `example:` of fields and parameters.
extension DescriptionBuilder {
    /// The Swift expression for `value` as a value of `type`, or nil after reporting why it is
    /// not one. Defaults are for scalars and enums, and for types that are not optional: the
    /// default is what an absent value becomes.
    mutating func defaultLiteral(_ value: Located<String>, for type: Located<TypeExpression>, of what: String) -> String? {
        let text = value.value
        guard case .named(let name) = type.value else {
            let fix = type.value.isOptional ? "; a value with a default is not optional: write '\(type.value.unwrapped)'" : ""
            diagnostics.error("'default:' is for a number, text, Bool or enum, but \(what) is '\(type.value)'\(fix)", at: value.location)
            return nil
        }
        func wrongType(_ expected: String) -> String? {
            diagnostics.error("default value '\(text)' of \(what) is not \(expected)", at: value.location)
            return nil
        }
        switch name {
        case "String":
            return SwiftLiteral.string(text)
        case "Int", "Int32", "Int64":
            guard let number = Int64(text), name != "Int32" || Int32(exactly: number) != nil else { return wrongType("an \(name)") }
            return String(number)
        case "Double", "Float":
            guard let number = Double(text), number.isFinite, name == "Double" || Float(text)?.isFinite == true else { return wrongType("a \(name)") }
            return "\(number)"
        case "Decimal":
            guard text.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) != nil else { return wrongType("a decimal number (digits, one '.')") }
            // Decimal keeps 38 significant digits and would round the rest away without a word.
            let significant = text.filter(\.isNumber).drop { $0 == "0" }.reversed().drop { $0 == "0" }.count
            guard significant <= 38, Decimal(string: text) != nil else {
                return wrongType("a Decimal: it keeps at most 38 significant digits, with exponents from -128 to 127")
            }
            // A bare literal is read as an Int first, so one past Int's range goes through its text.
            return text.contains(".") || Int(text) == nil ? "Decimal(string: \(SwiftLiteral.string(text)))!" : text
        case "Bool":
            guard text == "true" || text == "false" else { return wrongType("true or false") }
            return text
        default:
            guard let enumeration = enumDeclaration(named: name) else {
                diagnostics.error("'default:' is for a number, text, Bool or enum, but \(what) is '\(name)'", at: value.location)
                return nil
            }
            let rawValue = normalizedRawValue(text, of: enumeration)
            guard let match = enumeration.cases.first(where: { normalizedRawValue($0.rawValue.value, of: enumeration) == rawValue }) else {
                let values = enumeration.cases.map(\.rawValue.value).joined(separator: ", ")
                diagnostics.error("default value '\(text)' of \(what) is not a value of '\(name)': \(values)", at: value.location)
                return nil
            }
            return "." + Self.swiftName(of: match)
        }
    }

    /// A parameter's `default:` and `format:`.
    mutating func describeValue(of parameter: ParameterDeclaration, into described: inout ParameterDescription) {
        let what = "parameter '\(parameter.name.value)'"
        described.defaultLiteral = parameter.defaultValue.flatMap { defaultLiteral($0, for: parameter.type, of: what) }
        described.dateFormat = dateFormat(parameter.format, for: parameter.type, of: what)
        described.exampleJSON = parameter.example?.value
        if described.defaultLiteral != nil, let value = parameter.defaultValue?.value {
            described.defaultJSON = defaultJSON(value, for: parameter.type.value)
        }
        if let example = parameter.example, let value = JSONValue.parse(Data(example.value.utf8)) {
            for problem in examples.problems(in: value, as: parameter.type.value, dateFormat: parameter.format?.value ?? .iso8601) {
                let at = problem.path == "$" ? "" : " at \(problem.path)"
                diagnostics.error("the example of \(what) does not match '\(parameter.type.value)'\(at): \(problem.message)", at: example.location)
            }
        }
    }

    /// A `default:` that `defaultLiteral` accepted, as JSON: an enum's raw value, text quoted,
    /// a number as JSON writes it.
    func defaultJSON(_ text: String, for type: TypeExpression) -> String {
        guard case .named(let name) = type, name != "String" else { return JSONValue.quoted(text) }
        if let enumeration = enumDeclaration(named: name) {
            let raw = normalizedRawValue(text, of: enumeration)
            return (enumeration.rawType?.value ?? "String") == "String" ? JSONValue.quoted(raw) : raw
        }
        if let integer = Int64(text) { return String(integer) }
        if name != "Decimal", let number = Double(text) { return JSONValue.number(number).json }
        return text
    }

    /// `format:` of `what`: only a `Date` or `Date?` has one.
    mutating func dateFormat(_ format: Located<DateFormat>?, for type: Located<TypeExpression>, of what: String) -> DateFormat {
        guard let format else { return .iso8601 }
        guard type.value.unwrapped == .named("Date") else {
            diagnostics.error("'format:' is how a Date is written, but \(what) is '\(type.value)'", at: format.location)
            return .iso8601
        }
        return format.value
    }

    /// The enum a manifest declares under `name`, if it is one.
    func enumDeclaration(named name: String) -> EnumDeclaration? {
        guard case .enumeration(let enumeration)? = typeDeclaration(named: name)?.shape else { return nil }
        return enumeration
    }

    /// The fields of the model a manifest declares under `name`, if it is one.
    func modelFields(named name: String) -> [FieldDeclaration]? {
        guard case .model(let fields)? = typeDeclaration(named: name)?.shape else { return nil }
        return fields
    }

    /// The type a manifest declares under `name`.
    func typeDeclaration(named name: String) -> TypeDeclaration? {
        for file in workspace.files {
            if let type = file.types.first(where: { $0.name.value == name }) { return type }
        }
        return nil
    }

    /// `01` and `1` are one value of an integer enum.
    func normalizedRawValue(_ text: String, of enumeration: EnumDeclaration) -> String {
        guard let type = enumeration.rawType?.value, type != "String" else { return text }
        return Int64(text).map(String.init) ?? text
    }

    /// The Swift name of an enum case: as written when it is an identifier; the list form's raw
    /// values made Swift-shaped (`in-review` → `inReview`); keywords escaped.
    static func swiftName(of enumCase: EnumCaseDeclaration) -> String {
        let written = enumCase.name.value
        let name = SwiftIdentifier.isValid(written) ? written
            : enumCase.name == enumCase.rawValue ? caseName(fromRawValue: written)
            : SwiftIdentifier.make(from: written, capitalized: false)
        return SwiftIdentifier.escaped(name)
    }
}
