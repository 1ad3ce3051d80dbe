@testable import APIRuntime
import Foundation
import Testing

/// The frequency policy's notion of "the same call", as far as the URL goes.
@Suite("Call identity")
struct CallIdentityTests {
    @Test("Query items in another order are the same call; another value, or a bare name, is not")
    func canonicalQuery() {
        let canonical = CallIdentity.canonicalURL
        #expect(canonical("https://h/v1/users?role=admin&limit=5") == canonical("https://h/v1/users?limit=5&role=admin"))
        #expect(canonical("https://h/v1/users?limit=5&role=admin") == "https://h/v1/users?limit=5&role=admin")
        #expect(canonical("https://h/v1/users?tag=b&tag=a") == "https://h/v1/users?tag=a&tag=b")
        #expect(canonical("https://h/v1/users?role=admin") != canonical("https://h/v1/users?role=member"))
        #expect(canonical("https://h/v1/users?flag") != canonical("https://h/v1/users?flag="))
        #expect(canonical("https://h/v1/users?b=%26&a=1#top") == "https://h/v1/users?a=1&b=%26#top")
        #expect(canonical("https://h/v1/users") == "https://h/v1/users")
        #expect(canonical("https://h/v1/users?") == "https://h/v1/users")
        // A single item is returned as it is; an empty query before a fragment is dropped.
        #expect(canonical("https://h/v1/users?limit=5#top") == "https://h/v1/users?limit=5#top")
        #expect(canonical("https://h/v1/users?#top") == "https://h/v1/users#top")
        #expect(canonical("https://h/v1/é?ü=1&a=2") == "https://h/v1/é?a=2&ü=1")
    }

    @Test("The key separates its parts by length, so no two different calls share one")
    func keyParts() throws {
        let definition = APIDefinition(name: "Get", method: .get, path: "/a", defaults: APIDefaults())
        func key(_ url: String, body: String? = nil) throws -> String {
            let request = APIRequest(api: "Get", method: .get, url: try #require(URL(string: url)), body: body.map { Data($0.utf8) }, timeout: .seconds(1))
            return CallIdentity.key(for: request, definition: definition, kind: "rest")
        }
        #expect(try key("https://h/a?x=1&y=2") == key("https://h/a?y=2&x=1"))
        #expect(try key("https://h/a", body: "1") != key("https://h/a", body: "11"))
        #expect(try key("https://h/a", body: "") != key("https://h/a"))
        #expect(try key("https://h/a") == "4:rest3:Get3:GET11:https://h/a0:0:")
    }
}
