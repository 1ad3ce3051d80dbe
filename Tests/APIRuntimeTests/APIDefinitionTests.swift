import APIRuntime
import ExampleClient
import Testing

@Suite("API definitions")
struct APIDefinitionTests {
    @Test("The initializer for an API without settings gives what the full one gives by default")
    func shortInitializerMatchesDefaults() {
        let defaults = APIDefaults()
        let short = APIDefinition(name: "GetUser", method: .get, path: "/users/{id}", defaults: defaults)
        let full = APIDefinition(name: "GetUser", method: .get, path: "/users/{id}", timeout: nil, defaults: defaults)
        #expect(short.name == full.name && short.method == full.method && short.path == full.path)
        #expect(short.baseURL == full.baseURL && short.timeout == full.timeout)
        #expect(short.headers.map(\.name) == full.headers.map(\.name) && short.headers.map(\.value) == full.headers.map(\.value))
        #expect(short.frequency == full.frequency && short.retry == full.retry && short.rateLimit == full.rateLimit)
        #expect(short.significantHeaders == full.significantHeaders && short.tags == full.tags)
        #expect(short.skippedInterceptors == full.skippedInterceptors && short.sample == nil && full.sample == nil)
        #expect(short.rpc == nil && full.rpc == nil)
        #expect(short.inheritsDefaultHeaders == full.inheritsDefaultHeaders)
        #expect(short.defaults === defaults)
    }

    @Test("Generated classes each keep their own definition")
    func generatedClassesKeepTheirOwn() {
        let get = GetUserAPI(id: 1).definition
        let delete = DeleteUserAPI(id: 1).definition
        #expect(get.name == "GetUser" && get.method == .get && get.path == "/users/{id}")
        #expect(delete.name == "DeleteUser" && delete.method == .delete)
        #expect(GetUserAPI(id: 2).definition === get && get === GetUserAPI.definition)
        #expect(get.retry == RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100)) && get.tags == ["users"])
    }
}
