@testable import APIRuntime
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
    }
}
