import APIRuntime
import APITestSupport
import ExampleClient
import Testing
import WireTestSupport

@Suite("API definitions")
struct APIDefinitionTests {
    @Test("The initializer for an API without settings gives what the full one gives by default")
    func shortInitializerMatchesDefaults() {
        let defaults = APIDefaults()
        let short = APIDefinition(name: "GetUser", method: .get, path: "/users/{id}", defaults: defaults)
        let full = APIDefinition(name: "GetUser", wire: .http(.get, path: "/users/{id}"), timeout: nil, defaults: defaults)
        #expect(short.name == full.name && short.method == full.method && short.path == full.path)
        #expect(short.baseURL == full.baseURL && short.timeout == full.timeout)
        #expect(short.headers.map(\.name) == full.headers.map(\.name) && short.headers.map(\.value) == full.headers.map(\.value))
        #expect(short.frequency == full.frequency && short.retry == full.retry && short.rateLimit == full.rateLimit)
        #expect(short.significantHeaders == full.significantHeaders && short.tags == full.tags)
        #expect(short.skippedInterceptors == full.skippedInterceptors && short.sample == nil && full.sample == nil)
        #expect(short.kind == .rest && full.kind == .rest)
        #expect(short.defaults === defaults)
    }

    @Test("Generated classes each keep their own definition")
    func generatedClassesKeepTheirOwn() {
        let get = GetUserAPI.definition
        let delete = DeleteUserAPI.definition
        #expect(get.name == "GetUser" && get.method == .get && get.path == "/users/{id}")
        #expect(delete.name == "DeleteUser" && delete.method == .delete)
        #expect(get !== delete && get === GetUserAPI.definition)
        #expect(get.retry == RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100)) && get.tags == ["users"])
    }

    @Test("A definition says what it is once: its wire gives its kind, method, path and protocol")
    func wireGivesTheRest() {
        let subtract = SubtractAPI.definition
        #expect(subtract.kind == .jsonRPC && subtract.method == .post && SubtractAPI(minuend: 1, subtrahend: 2).rpcDelegate is JSONRPC)
        let divide = DivideAPI.definition
        guard case .jsonRPC(let method) = divide.wire else {
            Issue.record("Divide is not JSON-RPC")
            return
        }
        #expect(method.name == "math.divide" && method.path == "" && method.envelope.map(\.name) == ["apiVersion", "trace"])
        #expect(method.envelope.map(\.value) == ["2", true])
        #expect(CountMembersAPI(group: "a").rpcDelegate is CommandEnvelope && CountMembersAPI.definition.kind == .customRPC)
        #expect(GetUserAPI(id: 1).rpcDelegate == nil)
        let hello = SayHelloAPI.definition
        #expect(hello.kind == .grpc && hello.path == "/helloworld.Greeter/SayHello" && SayHelloAPI().rpcDelegate is GRPCProtocol)
    }
}
