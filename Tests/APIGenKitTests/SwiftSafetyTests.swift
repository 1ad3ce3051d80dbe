@testable import APIGenKit
import Testing

/// Manifest text becomes Swift data, never Swift code.
@Suite("Swift literals and identifiers")
struct SwiftSafetyTests {
    @Test("String literals escape what could end them, interpolate, or hide", arguments: [
        (#"plain"#, #""plain""#),
        (#"say "hi""#, #""say \"hi\"""#),
        (#"back\slash \(x)"#, #""back\\slash \\(x)""#),
        ("line\nbreak\ttab\r", #""line\nbreak\ttab\r""#),
        ("\"\"\"#", ##""\"\"\"#""##),
        ("rtl\u{202E}zero\u{200B}width", #""rtl\u{202E}zero\u{200B}width""#),
        ("nul\u{0}", #""nul\u{0}""#),
        ("émoji 😀", #""émoji 😀""#),
    ])
    func stringLiteral(text: String, literal: String) {
        #expect(SwiftLiteral.string(text) == literal)
    }

    @Test("Doc comment lines cannot smuggle code or invisible characters")
    func docLines() {
        #expect(SwiftLiteral.docLines("one\ntwo */ three\r\n\n") == ["one", "two */ three"])
        #expect(SwiftLiteral.docLines("a\u{202E}b") == ["a b"])
        #expect(SwiftLiteral.docLines(nil) == [])
    }

    @Test("Durations are whole seconds or milliseconds")
    func durations() {
        #expect(SwiftLiteral.duration(seconds: 30) == ".seconds(30)")
        #expect(SwiftLiteral.duration(seconds: 2.5) == ".milliseconds(2500)")
        #expect(SwiftLiteral.duration(seconds: 0.001) == ".milliseconds(1)")
    }

    @Test("Identifiers: ASCII letters, digits and _, keywords escaped")
    func identifiers() {
        #expect(SwiftIdentifier.isValid("userID"))
        #expect(SwiftIdentifier.isValid("_private2"))
        #expect(!SwiftIdentifier.isValid("2fa"))
        #expect(!SwiftIdentifier.isValid("user-id"))
        #expect(!SwiftIdentifier.isValid("naïve"))
        #expect(!SwiftIdentifier.isValid(""))
        #expect(SwiftIdentifier.escaped("default") == "`default`")
        #expect(SwiftIdentifier.escaped("Self") == "`Self`")
        #expect(SwiftIdentifier.escaped("name") == "name")
    }

    @Test("Enum raw values become Swift-shaped case names")
    func caseNames() {
        #expect(DescriptionBuilder.caseName(fromRawValue: "in-stock") == "inStock")
        #expect(DescriptionBuilder.caseName(fromRawValue: "2nd hand") == "_2ndHand")
        #expect(DescriptionBuilder.caseName(fromRawValue: "SOLD_OUT") == "soldOut")
        #expect(DescriptionBuilder.caseName(fromRawValue: "sub \"monthly\"") == "subMonthly")
    }
}

@Suite("Finding custom RPC delegates")
struct SourceScannerTests {
    @Test("Types whose inheritance clause names RPCDelegate, in declarations and extensions")
    func declarations() {
        let source = """
            public struct CommandEnvelope: RPCDelegate { }
            final class Legacy : Sendable, RPCDelegate {}
            enum NotADelegate: Sendable {}
            struct Later {}
            extension Later: RPCDelegate {}
            // struct Commented: Other {} RPCDelegate on a later line is not a conformance
            """
        #expect(SourceScanner.declaredDelegates(in: source) == ["CommandEnvelope", "Legacy", "Later"])
    }
}
