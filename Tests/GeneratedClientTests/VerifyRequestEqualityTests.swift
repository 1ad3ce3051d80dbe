import APIGenKit
import APIGenVerify
import APIManifest
import APIRuntime
import ExampleClient
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// `apigen verify` sends what the app sends: every call it makes of the example workspace, and
/// the generated client's call of the same API with the same values, reach recording servers
/// byte for byte alike (method, target, header fields, body; gRPC metadata in order and message).
@Suite("apigen verify sends the generated client's requests")
struct VerifyRequestEqualityTests {
    /// The token `--header` carries, and the app's authentication interceptor attaches.
    static let token = "verify-token"

    /// Each API verify calls, called through the generated client with its examples' values.
    static let generatedCalls: [String: @Sendable (APIManager) async -> Void] = [
        "GetUser": { _ = try? await GetUserAPI(id: 7).using($0).start() },
        "ListUsers": { manager in
            _ = try? await ListUsersAPI(role: .admin, tags: ["a b/ü+%", "x"], limit: 20, cursor: "x y&z=1+2", requestID: "verify-1").using(manager).start()
        },
        "GetProfile": { _ = try? await GetProfileAPI().using($0).start() },
        "CountUsers": { _ = try? await CountUsersAPI().using($0).start() },
        "GetForecast": { _ = try? await GetForecastAPI(city: "Lisbon", apiKey: "demo-key").using($0).start() },
        "Subtract": { _ = try? await SubtractAPI(minuend: 42, subtrahend: 23).using($0).start() },
        "Divide": { _ = try? await DivideAPI(dividend: 1, divisor: 4).using($0).start() },
        "ListInvoices": { manager in
            _ = try? await ListInvoicesAPI(since: Date(timeIntervalSince1970: 1_700_000_000), due: CalendarDate("2024-02-29")).using(manager).start()
        },
        "CheckHealth": { _ = try? await CheckHealthAPI().using($0).start() },
        "SayHello": { _ = try? await SayHelloAPI { $0.name = "World" }.using($0).start() },
        "GetFeature": { _ = try? await GetFeatureAPI().using($0).start() },
    ]

    @Test("Over REST, JSON-RPC and gRPC: verify's request and the generated client's are the same bytes, the token at the workspace's server and never at a third party's")
    func sameBytes() async throws {
        // The workspace's own origin on one server, the third parties' (weather, calc) on another,
        // so that "the workspace's origin" means the same thing to verify and to the interceptor.
        let own = try await LoopbackServer.start { _ in Response.json(#"{"jsonrpc":"2.0","id":1,"result":1}"#) }
        let others = try await LoopbackServer.start { _ in Response.json(#"{"jsonrpc":"2.0","id":1,"result":1}"#) }
        let grpc = try await RecordingGRPCServer.start()
        let overrides: [String: String] = [
            "https://api.example.com/v1": own.baseURL + "/v1",
            "https://auth.example.com": own.baseURL + "/auth",
            "https://weather.example.net/v2": others.baseURL + "/v2",
            "https://calc.example.com/v2/jsonrpc": others.baseURL + "/v2/jsonrpc",
            "https://legacy.example.com/gateway": others.baseURL + "/gateway",
            "grpc://localhost:50051": grpc.baseURL,
            "grpc://localhost:50052": grpc.baseURL,
        ]

        var diagnostics = Diagnostics()
        let (_, workspace) = try #require(Generator.describe(workspaceFile: "apis/workspace.yaml", into: &diagnostics))
        let options = ContractCheck.Options(
            baseURLOverrides: overrides, headers: [HeaderDescription(name: "Authorization", value: "Bearer \(Self.token)")], timeout: 10
        )
        let check = ContractCheck(workspace: workspace, options: options) { $0.httpTransport = testHTTPTransport }
        let report = await check.run()
        let called = report.entries.filter { $0.skipped == nil }.map(\.api)
        #expect(Set(called) == Set(Self.generatedCalls.keys), "verify calls \(called.sorted()); give each one its generated call here")
        let verifySent = (own: own.requests, others: others.requests, grpc: grpc.calls)

        var configuration = APIManager.Configuration()
        configuration.baseURLOverrides = overrides
        configuration.httpTransport = testHTTPTransport
        configuration.cookies = .none
        configuration.interceptors = [AuthenticationInterceptor(provider: StaticToken(token: Self.token))]
        let manager = APIManager(configuration: configuration)
        for api in called { await Self.generatedCalls[api]?(manager) }
        await manager.shutdown()

        let clientSent = (
            own: Array(own.requests.dropFirst(verifySent.own.count)),
            others: Array(others.requests.dropFirst(verifySent.others.count)),
            grpc: Array(grpc.calls.dropFirst(verifySent.grpc.count))
        )
        #expect(verifySent.own.map(Self.bytes) == clientSent.own.map(Self.bytes))
        #expect(verifySent.others.map(Self.bytes) == clientSent.others.map(Self.bytes))
        #expect(verifySent.grpc == clientSent.grpc)

        // What the equality covers: each protocol, the encoding the old client got wrong, the
        // token at home and never at a third party.
        let targets = verifySent.own.map(\.target) + verifySent.others.map(\.target)
        #expect(targets.contains("/v1/users?role=admin&tag=a%20b%2F%C3%BC%2B%25&tag=x&limit=20&cursor=x%20y%26z%3D1%2B2"))
        #expect(targets.contains("/v1/invoices?since=1700000000&due=2024-02-29&limit=50&status=open"))
        #expect(verifySent.others.contains { $0.bodyText.contains(#""params":{"dividend":1,"divisor":4}"#) })
        #expect(verifySent.own.allSatisfy { $0.headers[.authorization] == "Bearer \(Self.token)" })
        #expect(verifySent.others.allSatisfy { $0.headers[.authorization] == nil })
        #expect(verifySent.grpc.map(\.method).sorted() == ["helloworld.Greeter/SayHello", "routeguide.RouteGuide/GetFeature"])
        #expect(verifySent.grpc.allSatisfy { $0.metadata.contains("authorization: Bearer \(Self.token)") })
        #expect(verifySent.grpc.first { $0.method.hasSuffix("SayHello") }?.message == [0x0A, 0x05] + Array("World".utf8))
        #expect(verifySent.own.count + verifySent.others.count + verifySent.grpc.count == called.count)
    }

    /// A request as compared: everything the server received, its header fields by name (the
    /// URLSession transport keeps them in a dictionary, which orders them anew for each request;
    /// fields of one name keep their order).
    static func bytes(_ request: RecordedRequest) -> String {
        let fields = request.headers.map { "\($0.name.canonicalName): \($0.value)" }.enumerated()
            .sorted { ($0.element.prefix { $0 != ":" }, $0.offset) < ($1.element.prefix { $0 != ":" }, $1.offset) }
            .map(\.element).joined(separator: "\n")
        return "\(request.method.rawValue) \(request.target)\n\(fields)\n\n\(request.bodyText)"
    }
}

/// The app's token, always the same.
private struct StaticToken: TokenProvider {
    let token: String
    func initialToken() async throws -> String { token }
    func refreshToken(replacing rejected: String) async throws -> String { token }
}

/// A gRPC server that answers every unary call of the example's safe methods with an empty
/// message and keeps what it received: the method, the metadata in order, the message's bytes.
final class RecordingGRPCServer: Sendable {
    struct Call: Sendable, Equatable {
        var method: String
        var metadata: [String]
        var message: [UInt8]
    }

    let port: Int
    private let log: NIOLockedValueBox<[Call]>
    var baseURL: String { "grpc://127.0.0.1:\(port)" }
    var calls: [Call] { log.withLockedValue { $0 } }

    private init(port: Int, log: NIOLockedValueBox<[Call]>) {
        self.port = port
        self.log = log
    }

    static func start() async throws -> RecordingGRPCServer {
        let log = NIOLockedValueBox<[Call]>([])
        let transport = HTTP2ServerTransport.Posix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext)
        let methods = [("helloworld.Greeter", "SayHello"), ("routeguide.RouteGuide", "GetFeature")]
        let server = GRPCServer(transport: transport, services: [Recorder(methods: methods, log: log)])
        Task { try await server.serve() }
        let port = try #require(try await transport.listeningAddress.ipv4?.port)
        return RecordingGRPCServer(port: port, log: log)
    }

    private struct Recorder: RegistrableRPCService {
        let methods: [(service: String, method: String)]
        let log: NIOLockedValueBox<[Call]>

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            for (service, method) in methods {
                let log = log
                router.registerHandler(
                    forMethod: MethodDescriptor(fullyQualifiedService: service, method: method), deserializer: Raw(), serializer: Raw()
                ) { request, _ in
                    var message: [UInt8] = []
                    for try await part in request.messages { message += part }
                    // The deadline grpc-swift passes on is the time left, which varies by call.
                    let metadata = request.metadata.filter { $0.key != "grpc-timeout" }.map { "\($0.key): \($0.value)" }
                    log.withLockedValue { $0.append(Call(method: "\(service)/\(method)", metadata: metadata, message: message)) }
                    return StreamingServerResponse(single: ServerResponse(message: []))
                }
            }
        }
    }

    private struct Raw: MessageSerializer, MessageDeserializer {
        func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
        func deserialize<Bytes: GRPCContiguousBytes>(_ bytes: Bytes) throws -> [UInt8] { bytes.withUnsafeBytes { Array($0) } }
    }
}
