import APIManifest

/// What `models.mustache` reads: a manifest's types, in one file.
struct ModelsFileContext: TemplateContext {
    /// The modules the types need between them.
    var imports: [String]
    /// Whether `imports` has any.
    var hasImports: Bool
    /// Each type, for the `model`, `enum` or `union` partial.
    var models: [ModelContext]

    init(_ models: [ModelDescription], access: AccessLevel, manifest: String) {
        var needsRuntime = false, needsFoundation = false
        for model in models {
            switch model.shape {
            case .enumeration:
                needsRuntime = true // an enum is a `ParameterValue`
            case .structure(let fields):
                needsRuntime = needsRuntime || !model.derivesCoding || fields.contains { $0.type.spelling.contains("APIRuntime.") }
                needsFoundation = needsFoundation || fields.contains { $0.type.needsFoundation }
            case .union(let union):
                needsRuntime = needsRuntime || union.alternatives.contains { $0.type.spelling.contains("APIRuntime.") }
                needsFoundation = needsFoundation || union.alternatives.contains { $0.type.needsFoundation }
            }
        }
        imports = (needsRuntime ? ["APIRuntime"] : []) + (needsFoundation ? ["Foundation"] : [])
        hasImports = !imports.isEmpty
        self.models = models.map { ModelContext($0, access: access, manifest: manifest) }
    }
}

/// One type of a manifest: a struct (`model`), a union (`union`) or an enum (`enum`). The values
/// after the common ones belong to one shape each and are absent from the others.
struct ModelContext: TemplateContext {
    /// `public `, `package ` or nothing, from `access:`.
    var access: String
    /// Its manifest's path from the workspace's folder, escaped for a comment.
    var manifest: String
    /// The type's name in its manifest, escaped for a comment.
    var declaredName: String
    /// The type's Swift name.
    var swiftName: String
    /// The doc comment's lines, from `doc:`.
    var docLines: [String]

    // A struct.

    /// `true` for a struct.
    var isStruct: Bool?
    /// The stored properties: the fields, and `additionalProperties` when the type keeps
    /// members it does not declare.
    var fields: [MemberContext]?
    /// The fields that are coded by their keys.
    var codedFields: [MemberContext]?
    /// Whether `fields` has any.
    var hasFields: Bool?
    /// Whether the initializer's arguments fit on one line.
    var inlineArguments: Bool?
    /// `var`, or `let` for `mutable: false`.
    var binding: String?
    /// Whether the properties are `var`.
    var isMutable: Bool?
    /// Whether an API declares it as an error body.
    var isErrorBody: Bool?
    /// Whether a field's JSON key differs from its name.
    var hasCustomKeys: Bool?
    /// Whether a `CodingKeys` enum is written out.
    var hasCodingKeys: Bool?
    /// Whether `init(from:)` is written out (defaults, Unix times, kept members).
    var writesDecoding: Bool?
    /// Whether `encode(to:)` is written out.
    var writesEncoding: Bool?
    /// Whether the type keeps JSON members it does not declare, in `additionalProperties`.
    var keepsAdditionalProperties: Bool?

    // A union.

    /// `true` for a union.
    var isUnion: Bool?
    /// The types a value may be, in the order they are tried.
    var alternatives: [AlternativeContext]?
    /// The alternatives' types, for prose.
    var alternativeNames: String?
    /// The discriminator's `CodingKeys` case.
    var discriminatorCase: String?
    /// The discriminator's JSON key, a string literal, when it differs from its case.
    var discriminatorKeyLiteral: String?
    /// The discriminator's JSON key as a comment shows it.
    var discriminatorText: String?

    // An enum.

    /// `true` for an enum.
    var isEnum: Bool?
    /// Whether it is `frozen: true`, with no case for values it does not know.
    var isFrozen: Bool?
    /// `String` or `Int`.
    var rawType: String?
    /// The case that keeps a value the enum does not know.
    var unknownCase: String?
    /// The cases, in the manifest's order.
    var cases: [EnumCaseContext]?

    init(_ model: ModelDescription, access: AccessLevel, manifest: String) {
        self.access = SwiftExpression.accessModifier(access)
        self.manifest = SwiftLiteral.commentLine(manifest)
        declaredName = SwiftLiteral.commentLine(model.manifestName)
        swiftName = model.swiftName
        docLines = model.docLines
        switch model.shape {
        case .structure(let fields): describeStruct(model, fields: fields)
        case .union(let union): describe(union)
        case .enumeration(let enumeration): describe(enumeration)
        }
    }

    private mutating func describeStruct(_ model: ModelDescription, fields: [FieldDescription]) {
        isStruct = true
        let coded = fields.map(MemberContext.init(field:))
        var stored = coded
        if model.keepsAdditionalProperties {
            stored.append(MemberContext(
                "additionalProperties", SwiftType(spelling: "[String: APIRuntime.JSONValue]", isOptional: false, needsFoundation: false),
                docLines: ["Members of the JSON object that this type does not declare, kept as they came."], defaultLiteral: "[:]"
            ))
        }
        self.fields = stored
        codedFields = coded
        // Model-level: `{{binding}}` inside the fields section finds it on the context stack.
        isMutable = model.isMutable
        isErrorBody = model.isErrorBody
        binding = model.isMutable ? "var" : "let"
        let hasCustomKeys = fields.contains { $0.jsonKey != $0.swiftName.trimmingBackticks }
        self.hasCustomKeys = hasCustomKeys
        let writesEncoding = model.keepsAdditionalProperties || fields.contains { $0.dateFormat != .iso8601 }
        // Swift synthesizes the coding keys unless both halves of Codable are written out;
        // they are spelled out only when one differs from its field or they must be listed.
        hasCodingKeys = hasCustomKeys || model.keepsAdditionalProperties || (!model.derivesCoding && writesEncoding)
        writesDecoding = !model.derivesCoding
        self.writesEncoding = writesEncoding
        keepsAdditionalProperties = model.keepsAdditionalProperties
        hasFields = !stored.isEmpty
        inlineArguments = stored.count <= inlineArgumentLimit
    }

    private mutating func describe(_ union: UnionDescription) {
        isUnion = true
        alternatives = union.alternatives.map(AlternativeContext.init)
        alternativeNames = union.alternatives.map { $0.type.spelling }.joined(separator: ", ")
        if let discriminator = union.discriminator {
            let caseName = SwiftIdentifier.make(from: discriminator, capitalized: false)
            discriminatorCase = SwiftIdentifier.escaped(caseName)
            if caseName != discriminator {
                discriminatorKeyLiteral = SwiftLiteral.string(discriminator)
            }
            discriminatorText = SwiftLiteral.docLines(discriminator).joined()
        }
    }

    private mutating func describe(_ enumeration: EnumDescription) {
        isEnum = true
        isFrozen = enumeration.isFrozen
        rawType = enumeration.rawType
        unknownCase = enumeration.unknownCase
        let isText = enumeration.rawType == "String"
        cases = enumeration.cases.map { EnumCaseContext($0, isText: isText) }
    }
}

/// One alternative of a union.
struct AlternativeContext: TemplateContext {
    /// The enum case that holds it.
    var caseName: String
    /// Its Swift type.
    var type: String
    /// The discriminator's value that picks it, a string literal.
    var valueLiteral: String?

    init(_ alternative: UnionDescription.Alternative) {
        caseName = alternative.caseName
        type = alternative.type.spelling
        valueLiteral = alternative.discriminatorValue.map(SwiftLiteral.string)
    }
}

/// One case of an enum.
struct EnumCaseContext: TemplateContext {
    /// The case's name, with backticks when it is a keyword.
    var swiftName: String
    /// The raw value, a literal of the enum's raw type.
    var rawValueLiteral: String
    /// The raw value again, when the case must spell it: a number, or text that differs from
    /// the case's name (a frozen enum spells no other).
    var customRawValueLiteral: String?

    init(_ enumCase: EnumCaseDescription, isText: Bool) {
        swiftName = enumCase.swiftName
        rawValueLiteral = isText ? SwiftLiteral.string(enumCase.rawValue) : enumCase.rawValue
        if !isText || enumCase.rawValue != enumCase.swiftName.trimmingBackticks {
            customRawValueLiteral = rawValueLiteral
        }
    }
}
