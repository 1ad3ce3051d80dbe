import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import InMemoryLogging
import Logging
import MetricsTestKit
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

@Suite("Global interceptors on a loopback server")
struct InterceptorTests {
    @Test("The chain runs in order around REST, JSON-RPC and custom RPC calls and batches, and can change requests")
    func everyKind() async throws {
        let seen = NIOLockedValueBox<[String]>([])
        try await withServer(configure: {
            $0.interceptors = [RecordingInterceptor(name: "Outer", seen: seen), RecordingInterceptor(name: "Inner", seen: seen)]
        }, { request in
            switch request.path {
            case "/v1/jsonrpc": return JSONRPCServer.handle(request)
            case "/legacy/gateway": return .json(#"{"code": 0, "data": 3}"#)
            default: return .json("5")
            }
        }) { server, manager in
            _ = try await CountUsersAPI().using(manager).start()
            _ = try await SubtractAPI(minuend: 2, subtrahend: 1).using(manager).start()
            _ = try await CountMembersAPI(group: "g").using(manager).start()
            let batch = JSONRPCBatch(manager: manager)
            batch.add(SumAPI(a: 1, b: 2, c: 3))
            try await batch.send()

            #expect(seen.withLockedValue { $0 } == [
                "Outer>rest:CountUsers#1", "Inner>rest:CountUsers#1", "Inner<200", "Outer<200",
                "Outer>jsonrpc:Subtract#1", "Inner>jsonrpc:Subtract#1", "Inner<200", "Outer<200",
                "Outer>rpc:CountMembers#1", "Inner>rpc:CountMembers#1", "Inner<200", "Outer<200",
                "Outer>jsonrpc:JSONRPCBatch#1", "Inner>jsonrpc:JSONRPCBatch#1", "Inner<200", "Outer<200",
            ])
            #expect(server.requests.allSatisfy { $0.headers[HTTPField.Name("X-Outer")!] == "yes" && $0.headers[HTTPField.Name("X-Inner")!] == "yes" })
        }
    }

    @Test("Logging: every call logged, credentials and configured secrets redacted")
    func logging() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "apigen-test") { _ in handler }
        logger.logLevel = .trace
        try await withServer(configure: {
            $0.interceptors = [LoggingInterceptor(logger: logger, secretHeaders: ["X-Api-Key"], secretFields: ["name", "cursor"], logsBodies: true)]
        }, { _ in .json(#"{"access_token": "t", "token_type": "b", "expires_in": 1, "scopes": {}}"#) }) { _, manager in
            let api = SignInAPI(grantType: "password", username: "ann", password: "hunter2").using(manager)
            api.options.headers = [(name: "Authorization", value: "Bearer SECRET"), (name: "X-Api-Key", value: "KEY"), (name: "Cookie", value: "c=1")]
            _ = try await api.start()
            let createUser = CreateUserAPI(name: "Ann", role: .member, idempotencyKey: UUID()).using(manager)
            _ = try? await createUser.start()
            _ = try? await ListUsersAPI(limit: 5, cursor: "s3cr3t-cursor").using(manager).start()
        }
        let text = handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(handler.entries.contains { $0.message.description.hasPrefix("→ POST http://127.0.0.1") })
        #expect(handler.entries.contains { $0.message.description == "← 200 SignIn" })
        #expect(!text.contains("SECRET"))
        #expect(!text.contains("KEY"))
        #expect(!text.contains("c=1"))
        #expect(!text.contains("s3cr3t-cursor"))
        #expect(text.contains("limit=5&cursor=%3Credacted%3E"))
        #expect(text.contains("<redacted>"))
        // The JSON body is logged with the secret field redacted and the rest as it was.
        #expect(!text.contains("Ann"))
        #expect(text.contains(#""role":"member""#))
        #expect(text.contains(#""name":"<redacted>""#))
    }

    @Test("Metrics: calls, errors and durations per API")
    func metrics() async throws {
        let metrics = TestMetrics()
        try await withServer(configure: {
            $0.interceptors = [MetricsInterceptor(factory: metrics)]
            $0.connectTimeout = .milliseconds(300)
        }, { request in
            request.path.hasSuffix("/404") ? .json("{}", status: .notFound) : .json("1")
        }) { server, manager in
            for _ in 0..<3 { _ = try await CountUsersAPI().using(manager).start() }
            _ = try? await GetUserAPI(id: 404).using(manager).start()
            let down = CountUsersAPI().using(manager)
            down.options.baseURL = "http://127.0.0.1:1"
            _ = try? await down.start()
        }
        #expect(metrics.counterTotal(label: "apigen_calls_total", dimensions: [("api", "CountUsers"), ("kind", "rest"), ("status", "200")]) == 3)
        #expect(metrics.counterTotal(label: "apigen_calls_total", dimensions: [("api", "GetUser"), ("kind", "rest"), ("status", "404")]) == 1)
        #expect(metrics.counterTotal(label: "apigen_errors_total", dimensions: [("api", "CountUsers"), ("kind", "rest"), ("reason", "transport")]) == 1)
        #expect(metrics.timers(label: "apigen_call_duration").count == 2)
    }
}
