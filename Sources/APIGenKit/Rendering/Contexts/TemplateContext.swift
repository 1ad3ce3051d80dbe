/// What one template, or one partial inside it, reads: a struct whose property names are the
/// template's keys. Every name, type and Swift expression in it is final (`SwiftExpression`,
/// `SwiftLiteral`); templates only place them. docs/templates.md lists them all.
protocol TemplateContext: Encodable {}

extension TemplateContext {
    /// The context as templates read it; a nil optional is a key that is absent.
    var templateValue: TemplateValue { TemplateValueEncoder.encode(self) }
}

/// Up to this many arguments, an initializer fits on one line.
let inlineArgumentLimit = 3

/// A name and a value as Swift literals: a header every call sends, or a field of a custom RPC
/// envelope.
struct NamedLiteralContext: TemplateContext {
    /// The name, a string literal.
    var nameLiteral: String
    /// The value: a string literal for a header, a JSON value's literal for an envelope field.
    var valueLiteral: String

    init(_ header: HeaderDescription) {
        nameLiteral = SwiftLiteral.string(header.name)
        valueLiteral = SwiftLiteral.string(header.value)
    }

    init(nameLiteral: String, valueLiteral: String) {
        self.nameLiteral = nameLiteral
        self.valueLiteral = valueLiteral
    }
}
