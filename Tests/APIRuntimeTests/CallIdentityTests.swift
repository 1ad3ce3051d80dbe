@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Testing

/// The frequency policy's notion of "the same call".
@Suite("Call identity")
struct CallIdentityTests {
    @Test("Query items of different names in another order are the same call; items of one name keep their order")
    func canonicalQuery() {
        let canonical = CallIdentity.canonicalPath
        #expect(canonical("/v1/users?role=admin&limit=5") == canonical("/v1/users?limit=5&role=admin"))
        #expect(canonical("/v1/users?limit=5&role=admin") == "/v1/users?limit=5&role=admin")
        #expect(canonical("/v1/users?sort=name&sort=age") != canonical("/v1/users?sort=age&sort=name"))
        #expect(canonical("/v1/users?sort=name&limit=5&sort=age") == "/v1/users?limit=5&sort=name&sort=age")
        #expect(canonical("/v1/users?role=admin") != canonical("/v1/users?role=member"))
        #expect(canonical("/v1/users?flag") != canonical("/v1/users?flag="))
        #expect(canonical("/v1/users?b=%26&a=1#top") == "/v1/users?a=1&b=%26#top")
        #expect(canonical("/v1/users") == "/v1/users")
        #expect(canonical("/v1/users?") == "/v1/users")
        // A single item is returned as it is; an empty query before a fragment is dropped.
        #expect(canonical("/v1/users?limit=5#top") == "/v1/users?limit=5#top")
        #expect(canonical("/v1/users?#top") == "/v1/users#top")
        #expect(canonical("/v1/é?ü=1&a=2") == "/v1/é?a=2&ü=1")
    }

    @Test("The key separates its parts by length, so no two different calls share one")
    func keyParts() throws {
        let definition = APIDefinition(name: "Get", method: .get, path: "/a", defaults: APIDefaults())
        func key(_ url: String, body: String? = nil) throws -> String {
            let request = APIRequest(api: "Get", method: .get, url: try #require(URL(string: url)), body: body.map { Data($0.utf8) }, timeout: .seconds(1))
            return CallIdentity.key(for: request, body: request.body, definition: definition, kind: "rest")
        }
        #expect(try key("https://h/a?x=1&y=2") == key("https://h/a?y=2&x=1"))
        #expect(try key("https://h/a", body: "1") != key("https://h/a", body: "11"))
        #expect(try key("https://h/a", body: "") != key("https://h/a"))
        #expect(try key("https://h/a") == "4:rest3:Get3:GET5:https1:h2:/a0:0:")
    }

    @Test("Every header but the credentials counts, unless the API names the ones that do; credentials are compared apart, whatever it names")
    func headers() throws {
        func fields(_ headers: [(String, String)]) throws -> HTTPFields {
            var fields = HTTPFields()
            for (name, value) in headers { fields.append(HTTPField(name: try #require(HTTPField.Name(name)), value: value)) }
            return fields
        }
        func key(_ headers: [(String, String)], significant: [String]? = nil) throws -> String {
            let definition = APIDefinition(name: "Get", wire: .http(.get, path: "/a"), significantHeaders: significant, defaults: APIDefaults())
            let request = APIRequest(api: "Get", method: .get, url: try #require(URL(string: "https://h/a")), headerFields: try fields(headers), timeout: .seconds(1))
            return CallIdentity.key(for: request, body: nil, definition: definition, kind: "rest")
        }
        func credentials(_ headers: [(String, String)]) throws -> Credentials? {
            Credentials(try fields(headers))
        }
        // Credentials are not the identity: they are compared on their own.
        #expect(try key([("Authorization", "Bearer A")]) == key([]))
        #expect(try credentials([("Authorization", "Bearer A")]) != credentials([("Authorization", "Bearer B")]))
        #expect(try credentials([("Cookie", "s=1")]) != nil && credentials([("Accept", "*/*")]) == nil)
        #expect(try credentials([("X-API-Key", "1")])?.text == "x-api-key:1")
        #expect(try key([("X-Tenant", "a"), ("Accept", "*/*")]) == key([("Accept", "*/*"), ("X-Tenant", "a")]))
        #expect(try key([("X-Tenant", "a")]) != key([("X-Tenant", "b")]))
        #expect(try key([("X-Tag", "a"), ("X-Tag", "b")]) != key([("X-Tag", "b"), ("X-Tag", "a")]))
        // Named headers alone: an API whose reply is the same for everyone opts out of the rest.
        #expect(try key([("X-User", "1"), ("Accept", "a")], significant: ["x-user"]) == key([("X-User", "1"), ("Accept", "b")], significant: ["x-user"]))
        #expect(try key([("X-User", "1")], significant: ["X-User"]) != key([("X-User", "2")], significant: ["X-User"]))
        // A credential a manifest names is still a credential, kept apart from the identity.
        #expect(try key([("X-API-Key", "1")], significant: ["X-API-Key"]) == key([("X-API-Key", "2")], significant: ["X-API-Key"]))
        // What a log-out may name them by: each value, the token after its scheme, secret cookies.
        let names = try credentials([("Authorization", "Bearer t1"), ("Cookie", "sid=A; theme=dark")])?.names
        #expect(names == ["Bearer t1", "t1", "sid=A; theme=dark", "sid=A"])
    }

    @Test("Secret query items are credentials a log-out can name; a page's cursor is not")
    func queryCredentials() throws {
        let head = HTTPRequest(method: .get, scheme: "https", authority: "h", path: "/items?pageToken=P1&api_key=K%2B1&next_token=N&access_token=T&q=x")
        let credentials = try #require(Credentials(head))
        #expect(credentials.text == "?api_key:K%2B1\n?access_token:T")
        #expect(credentials.names.contains("K+1") && credentials.names.contains("T"))
        #expect(!credentials.text.contains("P1") && !credentials.text.contains("N"))
        #expect(Credentials(HTTPRequest(method: .get, scheme: "https", authority: "h", path: "/items?pageToken=P1&continuationToken=C")) == nil)
    }
}
