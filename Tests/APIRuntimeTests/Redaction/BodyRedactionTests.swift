@testable import APIRuntime
import APIWireFormat
import Foundation
import Testing

/// Where a secret can travel in a body, a URL or a name, and what of it reaches a recording (and,
/// where the logger shares the rule, a log): nothing.
@Suite("Redaction of bodies, URLs and names")
struct BodyRedactionTests {
    static let secrets = SecretNames.standard
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

    static func recorded(_ body: String, _ contentType: String? = "application/json") -> String {
        secrets.redacted(body: Data(body.utf8), contentType: contentType) ?? "<nil>"
    }

    @Test("JSON that JSONSlices refuses (a BOM, an XSSI prefix, JSON Lines, nesting past 512) is recorded as text with its named secrets", arguments: [
        "\u{FEFF}{\"access_token\":\"HUNTER2\"}",
        ")]}',\n{\"access_token\":\"HUNTER2\"}",
        "{\"token\":\"HUNTER2\"}\n{\"token\":\"HUNTER2\"}\n",
        String(repeating: "[", count: 600) + "{\"password\":\"HUNTER2\"}" + String(repeating: "]", count: 600),
    ])
    func notQuiteJSON(body: String) {
        #expect(!Self.recorded(body).contains("HUNTER2"))
    }

    @Test("Names ending in digits: Django's password1/password2, new_password1, apiKey2", arguments: ["password1", "password2", "new_password1", "apiKey2", "token2"])
    func trailingDigits(name: String) {
        #expect(Self.secrets.contains(name))
        #expect(!Self.recorded(#"{"\#(name)":"HUNTER2"}"#).contains("HUNTER2"))
    }

    @Test("Positional parameters: a string at any depth goes; a number, which no name marks, stays")
    func positionalNested() {
        #expect(!Self.recorded(#"{"jsonrpc":"2.0","method":"login","params":[["alice","HUNTER2"]],"id":1}"#).contains("HUNTER2"))
        #expect(Self.recorded(#"{"jsonrpc":"2.0","method":"add","params":[1.000000000000000001,2],"id":1}"#).contains("[1.000000000000000001,2]"))
    }

    @Test("A secret inside a JSON string holding JSON is kept")
    func jsonInString() {
        #expect(!Self.recorded(#"{"payload":"{\"password\":\"HUNTER2\"}"}"#).contains("HUNTER2"))
    }

    @Test("Token shapes the JWT scan misses: JWE (five parts), padded segments, a JWT followed by .more", arguments: [
        "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.OKOawDo13gRp2ojaHV7LFpZcgV7T6DVZKTy.48V1_ALb6US04U3b.5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6.XFBoMYUZodetZdvTiFvSkQ",
        "eyJhbGciOiJIUzI1NiJ9==.eyJzdWIiOiIxMjM0NTY3ODkwIn0=.dozjgNryP4J3jVmNHl0w5N",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N.v2",
    ])
    func tokenShapes(token: String) {
        #expect(!Self.recorded("session: \(token)", "text/plain").contains(token.prefix(30)))
    }

    @Test("A form without a form content type (or text/plain) keeps its password")
    func formWithoutContentType() {
        #expect(!Self.recorded("username=ada&password=HUNTER2", nil).contains("HUNTER2"))
        #expect(!Self.recorded("username=ada&password=HUNTER2", "text/plain").contains("HUNTER2"))
    }

    @Test("A JWT in a path segment whose placeholder has no secret name stays in the URL")
    func jwtInPath() throws {
        let url = try #require(URL(string: "https://api.example.com/confirm/\(Self.jwt)"))
        #expect(!Self.secrets.redacted(url, template: PathTemplate("/confirm/{confirmation}")).contains(Self.jwt))
    }

    @Test("JSON nested deep (a comment thread) without a secret is kept as it is")
    func deepButHarmless() {
        var body = #"{"text":"leaf"}"#
        for _ in 0..<33 { body = #"{"reply":"# + body + "}" }
        #expect(Self.recorded(body).contains(#""text":"leaf""#))
    }
}
