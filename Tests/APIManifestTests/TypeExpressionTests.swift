import APIManifest
import Testing

@Suite("Type expressions")
struct TypeExpressionTests {
    @Test("Swift spellings parse into their structure", arguments: [
        ("Int", TypeExpression.named("Int")),
        ("User?", .optional(.named("User"))),
        ("[User]", .array(.named("User"))),
        ("[User]?", .optional(.array(.named("User")))),
        ("[User?]", .array(.optional(.named("User")))),
        ("[String: Int]", .dictionary(.named("Int"))),
        ("[String:[String: [Double]]]?", .optional(.dictionary(.dictionary(.array(.named("Double")))))),
        (" [ Int ] ", .array(.named("Int"))),
    ])
    func parses(text: String, expected: TypeExpression) throws {
        #expect(try TypeExpression.parse(text) == expected)
    }

    @Test("Descriptions round-trip to Swift spelling")
    func description() throws {
        #expect(try TypeExpression.parse("[String:[User?]]?").description == "[String: [User?]]?")
    }

    @Test("Malformed types are errors that point at the problem", arguments: [
        ("", "expected a type name", 0),
        ("[Int", "expected ']' to close the type", 4),
        ("Int??", "unexpected '?' in type 'Int??'", 4),
        ("[Int: String]", "dictionary keys must be String, found 'Int'", 4),
        ("Int]", "unexpected ']' in type 'Int]'", 3),
        ("Map<Int>", "unexpected '<' in type 'Map<Int>'", 3),
    ])
    func rejects(text: String, message: String, offset: Int) {
        do {
            let parsed = try TypeExpression.parse(text)
            Issue.record("expected an error, parsed \(parsed)")
        } catch {
            #expect(error.message == message)
            #expect(error.offset == offset)
        }
    }
}

@Suite("Did-you-mean")
struct SuggestionTests {
    @Test("Close words are suggested, far ones are not")
    func suggestions() {
        #expect(Suggestion.closest(to: "respone", in: ["response", "parameters"]) == "response")
        #expect(Suggestion.closest(to: "GTE", in: ["GET", "PUT"]) == "GET")
        #expect(Suggestion.closest(to: "get", in: ["GET", "PUT"]) == "GET")
        #expect(Suggestion.closest(to: "Strng", in: ["String", "Int"]) == "String")
        #expect(Suggestion.closest(to: "banana", in: ["String", "Int"]) == nil)
        #expect(Suggestion.hint(for: "patth", in: ["path"]) == " (did you mean 'path'?)")
    }
}
