import APIRuntime
import ExampleClient
import Synchronization
import Testing

/// A hand-written API that counts how often its definition is made.
private final class CountedAPI: BaseAPI<Int>, @unchecked Sendable {
    static let made = Atomic<Int>(0)

    convenience init(_ value: Int) {
        self.init(definedOnce: Self.makeDefinition(), response: .json, request: RequestBuilder().query("v", value))
    }

    static func makeDefinition() -> APIDefinition {
        made.add(1, ordering: .relaxed)
        return APIDefinition(name: "Counted", method: .get, path: "/counted", defaults: APIDefaults())
    }
}

/// A subclass inherits its parent's initializer, but is a class of its own: the definition it
/// makes is kept for it apart from its parent's.
private class ParentAPI: BaseAPI<Int>, @unchecked Sendable {
    convenience init() {
        self.init(definedOnce: APIDefinition(name: "Parent", method: .get, path: "/parent", defaults: APIDefaults()), response: .json)
    }
}

private final class ChildAPI: ParentAPI, @unchecked Sendable {}

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

    @Test("definedOnce: the first instance of a class makes its definition, every later one shares it")
    func definitionMadeOncePerClass() async {
        let first = CountedAPI(1)
        #expect(CountedAPI.made.load(ordering: .relaxed) == 1)
        let others = await withTaskGroup(of: APIDefinition.self) { group in
            for value in 0..<100 { group.addTask { CountedAPI(value).definition } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(CountedAPI.made.load(ordering: .relaxed) == 1)
        #expect(others.count == 100 && others.allSatisfy { $0 === first.definition })
        let parent = ParentAPI().definition, child = ChildAPI().definition
        #expect(parent.name == "Parent" && child.name == "Parent")
        #expect(parent !== child)
        #expect(ParentAPI().definition === parent && ChildAPI().definition === child)
    }

    @Test("Generated classes each keep their own definition")
    func generatedClassesKeepTheirOwn() {
        let get = GetUserAPI(id: 1).definition
        let delete = DeleteUserAPI(id: 1).definition
        #expect(get.name == "GetUser" && get.method == .get && get.path == "/users/{id}")
        #expect(delete.name == "DeleteUser" && delete.method == .delete)
        #expect(GetUserAPI(id: 2).definition === get)
        #expect(get.retry == RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100)) && get.tags == ["users"])
    }
}
