@testable import APIRuntime
import Testing

/// How a name is split into words, and which names are secret.
@Suite("Secret names")
struct SecretNameTests {
    @Test("Words split at separators, lower-to-upper changes and digits, ASCII or not", arguments: [
        ("X-API-Key", ["x", "api", "key"]),
        ("refreshToken", ["refresh", "token"]),
        ("password2", ["password", "2"]),
        ("client.secret", ["client", "secret"]),
        ("HTTPHeader", ["httpheader"]),
        ("a__b--c", ["a", "b", "c"]),
        ("$token", ["$token"]),
        ("", []),
        ("größeToken", ["größe", "token"]),
        ("ÄpiKey", ["äpi", "key"]),
        ("zahl٣", ["zahl", "٣"]),
    ])
    func words(name: String, words: [String]) {
        #expect(SecretNames.words(of: name) == words)
    }

    @Test("A name is secret by a word, a word's long suffix or a whole name; not otherwise")
    func standard() {
        let secrets = SecretNames.standard
        for name in ["X-API-Key", "accesstoken", "xsrftoken", "access", "Refresh", "sessionId", "größe_token"] {
            #expect(secrets.contains(name), "\(name)")
        }
        for name in ["limit", "access_level", "country_code", "monkey", "accept", "content-type", "größe"] {
            #expect(!secrets.contains(name), "\(name)")
        }
    }

    @Test("Words added or removed after the set is made count, their suffixes too")
    func changedWords() {
        var secrets = SecretNames.standard
        #expect(!secrets.contains("tenantpassport"))
        secrets.words.insert("passport")
        #expect(secrets.contains("tenantpassport"))
        secrets.words.remove("token")
        #expect(!secrets.contains("accesstoken"))
        #expect(!secrets.contains("limit_token"))
    }

    @Test("A word added in one Unicode form makes secret the names that end with it in another")
    func canonicalSuffix() {
        var secrets = SecretNames.standard
        secrets.words.insert("passe\u{301}")
        #expect(secrets.contains("xpass\u{E9}"))
        #expect(secrets.contains("pass\u{E9}"))
        #expect(!secrets.contains("pass"))
    }
}
