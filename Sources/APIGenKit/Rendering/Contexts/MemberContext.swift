import APIManifest

/// A stored property and the initializer argument that sets it: a model's field, an API's
/// parameter or a reply header it reads. The `initializer` partial and the property templates
/// read members of every kind alike; each kind adds the values only it has.
struct MemberContext: TemplateContext {
    /// The property's name, with backticks when it is a keyword.
    var swiftName: String
    /// The initializer's parameter: the name, or `self selfValue` for a member named `self`,
    /// which would hide `self` in the initializer's body.
    var parameter: String
    /// The name the initializer's body reads the argument by.
    var argument: String
    /// The argument label, without backticks where Swift needs none.
    var label: String
    /// The Swift type.
    var type: String
    /// Whether `type` is optional.
    var isOptional: Bool
    /// The doc comment's lines, from `doc:`.
    var docLines: [String]
    /// The argument's default: the declared default's literal, `nil` for an optional.
    var defaultArgument: String?

    // A model's field.

    /// The JSON key, a string literal, when it differs from `swiftName`.
    var customKeyLiteral: String?
    /// How a written-out `init(from:)` reads the field.
    var decodeExpression: String?
    /// How a written-out `encode(to:)` writes it.
    var encodeStatement: String?

    // An API's parameter (and, for `wireNameLiteral`, a reply header).

    /// The argument as it travels (a date in a Unix format as its number).
    var valueExpression: String?
    /// The `RequestBuilder` method that puts it where it travels; absent for a download's
    /// destination, which the response decoder takes.
    var builderMethod: String?
    /// Its name on the wire (a bytes body's content type), a string literal; absent where it has
    /// none (by-position RPC parameters, a whole JSON body).
    var wireNameLiteral: String?
    /// The API's stored property that keeps the argument: its name, unless it is one of
    /// `BaseAPI`'s public properties (`options`, `rpcDelegate`) or the class's nested
    /// `ResponseHeaders`, which get `Parameter` after them.
    var property: String?

    init(_ swiftName: String, _ type: SwiftType, docLines: [String], defaultLiteral: String? = nil) {
        let isSelf = swiftName.trimmingBackticks == "self"
        self.swiftName = swiftName
        parameter = isSelf ? "self selfValue" : swiftName
        argument = isSelf ? "selfValue" : swiftName
        label = SwiftIdentifier.argumentLabel(swiftName)
        self.type = type.spelling
        isOptional = type.isOptional
        self.docLines = docLines
        defaultArgument = defaultLiteral ?? (type.isOptional ? "nil" : nil)
    }

    /// A model's field, with how a written-out `Codable` conformance reads and writes it.
    init(field: FieldDescription) {
        self.init(field.swiftName, field.type, docLines: field.docLines, defaultLiteral: field.defaultLiteral)
        if field.jsonKey != field.swiftName.trimmingBackticks {
            customKeyLiteral = SwiftLiteral.string(field.jsonKey)
        }
        decodeExpression = SwiftExpression.decode(field)
        encodeStatement = SwiftExpression.encode(field)
    }

    /// An API's parameter, with where and how it travels.
    init(parameter: ParameterDescription, of api: APIDescription) {
        self.init(parameter.swiftName, parameter.type, docLines: parameter.docLines, defaultLiteral: parameter.defaultLiteral)
        valueExpression = SwiftExpression.wireValue(argument, parameter.dateFormat, isOptional: parameter.type.isOptional)
        property = SwiftIdentifier.apiProperty(swiftName, among: api.parameters.map(\.swiftName))
        guard !parameter.isDownloadDestination else { return }
        let builder = SwiftExpression.builderMethod(parameter, api)
        builderMethod = builder
        switch (builder, api.shape.rest?.body) {
        case ("positional", _), ("jsonBody", _): break
        case ("bytes", .bytes(let contentType)?): wireNameLiteral = SwiftLiteral.string(contentType)
        case _: wireNameLiteral = SwiftLiteral.string(parameter.wireName)
        }
    }

    /// A reply header an API reads as a type.
    init(responseHeader header: ParameterDescription) {
        self.init(header.swiftName, header.type, docLines: header.docLines)
        wireNameLiteral = SwiftLiteral.string(header.wireName)
    }
}
