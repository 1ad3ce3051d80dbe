import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// `ExchangeRecorder` records a run against a loopback server; `TransportFactory.replaying`
/// serves it again once the server has stopped.
@Suite("Record and replay")
struct RecordReplayTests {
    struct Tokens: TokenProvider {
        func initialToken() async throws -> String { "t0ken-for-bearer" }
        func refreshToken(replacing rejected: String) async throws -> String { "t0ken-for-bearer" }
    }

    static let tokenReply = #"{"access_token":"s3cret-access","token_type":"bearer","expires_in":3600,"scopes":{"read":true}}"#

    static func handle(_ request: RecordedRequest) -> Response {
        switch (request.method, request.path) {
        case (.post, "/auth/oauth/token"): .json(tokenReply)
        case (.get, "/v1/users/404"): .json(#"{"message":"no such user"}"#, status: .notFound)
        case (.get, let path) where path.hasPrefix("/v1/users/"): .json(Samples.userJSON)
        case (.post, "/v1/users"): .json(Samples.userJSON, status: .created)
        case (.delete, _): Response(status: .noContent)
        case (.post, "/v1/jsonrpc"): JSONRPCServer.handle(request)
        default: .json("{}", status: .notFound)
        }
    }

    static func configuration(server: String) -> APIManager.Configuration {
        var configuration = APIManager.Configuration()
        configuration.baseURLOverrides = ["https://api.example.com/v1": server + "/v1", "https://auth.example.com": server + "/auth"]
        return configuration
    }

    /// The calls of the run, recorded and replayed alike; what each returned, as text.
    static func run(_ manager: APIManager) async -> [String] {
        func outcome(_ call: () async throws -> Any) async -> String {
            do { return "\(try await call())" } catch { return "\(error)" }
        }
        var outcomes: [String] = []
        outcomes.append(await outcome { try await SignInAPI(grantType: "password", username: "ada", password: "hunter2").using(manager).start().expiresIn })
        outcomes.append(await outcome { try await GetUserAPI(id: 7).using(manager).start().name })
        outcomes.append(await outcome { try await GetUserAPI(id: 7).using(manager).start().email ?? "" })
        outcomes.append(await outcome {
            try await CreateUserAPI(name: "Ann", role: .admin, idempotencyKey: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!).using(manager).start().id
        })
        outcomes.append(await outcome { try await DeleteUserAPI(id: 7).using(manager).start() })
        outcomes.append(await outcome { try await SubtractAPI(minuend: 42, subtrahend: 23).using(manager).start() })
        outcomes.append(await outcome { try await GetUserAPI(id: 404).using(manager).start() })
        return outcomes
    }

    @Test("A run recorded against a loopback server replays the same with the server stopped; no secret reaches the file")
    func recordThenReplay() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let file = folder.appendingPathComponent("run.json")

            let server = try await LoopbackServer.start(Self.handle)
            var recording = Self.configuration(server: server.baseURL)
            recording.httpTransport = testHTTPTransport
            let recorder = try ExchangeRecorder(file: file)
            recording.interceptors = [AuthenticationInterceptor(provider: Tokens(), hosts: .any), recorder]
            let recorded = try await withManager(recording) { manager in await Self.run(manager) }
            await server.stop()
            #expect(recorded.count == 7 && recorded[1] == "Ann" && recorded[5] == "19")
            #expect(recorded[6].hasPrefix("GetUser: HTTP 404"))
            #expect(recorder.exchanges.map(\.api) == ["SignIn", "GetUser", "GetUser", "CreateUser", "DeleteUser", "Subtract", "GetUser"])

            // The file: every exchange, and none of the secrets of the run.
            let text = try String(contentsOf: file, encoding: .utf8)
            for secret in ["hunter2", "s3cret-access", "t0ken-for-bearer"] {
                #expect(!text.contains(secret), "\(secret) reached the recording")
            }
            let saved = try Recording(contentsOf: file)
            #expect(saved == Recording(exchanges: recorder.exchanges))
            #expect(saved.exchanges[0].request.body == "grant_type=password&username=ada&password=%3Credacted%3E")
            #expect(saved.exchanges[1].request.headers.contains(Recording.Field(name: "Authorization", value: "<redacted>")))
            // The request as it was sent, byte for byte (its id included, which replay leaves aside).
            #expect(saved.exchanges[5].request.body == #"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#)

            // Replayed with the server gone: the same outcomes, a secret the server sent aside.
            var replaying = Self.configuration(server: server.baseURL)
            replaying.httpTransport = .replaying(saved)
            replaying.interceptors = [AuthenticationInterceptor(provider: Tokens(), hosts: .any)]
            try await withManager(replaying) { manager in
                // A first JSON-RPC call moves this manager's request ids past the recording's, so
                // that the replayed reply must take the request's id to be accepted.
                let unrecorded = await expectAPIError { try await SumAPI(a: 1, b: 2, c: 3).using(manager).start() }
                #expect(unrecorded?.reason == .notStubbed(request: "POST \(server.baseURL)/v1/jsonrpc in the recording: the recording holds no call of Sum"))

                let replayed = await Self.run(manager)
                #expect(replayed == recorded, "\(replayed) against \(recorded)")
                let token = try await SignInAPI(grantType: "password", username: "ada", password: "other").using(manager).start()
                #expect(token.accessToken == "<redacted>")

                // A request the recording lacks fails, naming what it holds of the API.
                let missing = await expectAPIError { try await GetUserAPI(id: 8).using(manager).start() }
                #expect(missing?.api == "GetUser")
                #expect(missing?.reason == .notStubbed(request: "GET \(server.baseURL)/v1/users/8 in the recording: it holds GET \(server.baseURL)/v1/users/7, GET \(server.baseURL)/v1/users/7, GET \(server.baseURL)/v1/users/404"))
            }
            #expect(server.requests.count == 7)
        }
    }

    @Test("A 401 in the middle of a recorded run is recorded and replayed: the token is refreshed and the call sent again, both times")
    func unauthorizedMidRun() async throws {
        struct Rotating: TokenProvider {
            func initialToken() async throws -> String { "stale" }
            func refreshToken(replacing rejected: String) async throws -> String { "fresh" }
        }
        try await withTemporaryFolder { (folder: URL) async throws in
            let recorder = try ExchangeRecorder(file: folder.appendingPathComponent("refresh.json"))
            let server = try await LoopbackServer.start { request in
                request.headers[.authorization] == "Bearer fresh" ? .json(Samples.userJSON) : .json(#"{"error":"expired"}"#, status: .unauthorized)
            }
            var recording = Self.configuration(server: server.baseURL)
            recording.httpTransport = testHTTPTransport
            let auth = AuthenticationInterceptor(provider: Rotating(), hosts: .any)
            recording.interceptors = [auth, recorder]
            let recorded = try await withManager(recording) { manager in try await GetProfileAPI().using(manager).start() }
            await server.stop()
            #expect(recorder.exchanges.map(\.response.status) == [401, 200])
            #expect(await auth.refreshCount == 1)

            var replaying = Self.configuration(server: server.baseURL)
            replaying.httpTransport = .replaying(Recording(exchanges: recorder.exchanges))
            let replayAuth = AuthenticationInterceptor(provider: Rotating(), hosts: .any)
            replaying.interceptors = [replayAuth]
            try await withManager(replaying) { manager in
                let replayed = try await GetProfileAPI().using(manager).start()
                #expect(replayed == recorded)
            }
            #expect(await replayAuth.refreshCount == 1)
        }
    }

    @Test("A recorder whose file cannot be written fails when it is made, not after the run")
    func unwritableFile() {
        #expect(throws: (any Error).self) {
            try ExchangeRecorder(file: URL(fileURLWithPath: "/nonexistent-\(UUID())/run.json"))
        }
    }

    @Test("A streamed reply is recorded by its head, and replaying it fails saying so")
    func streamedReply() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let recorder = try ExchangeRecorder(file: folder.appendingPathComponent("stream.json"))
            try await withServer(configure: { $0.interceptors = [recorder] }, { _ in .text("data: {\"user_id\":1,\"action\":\"x\",\"at\":\"2024-01-01T00:00:00Z\"}\n\n", contentType: "text/event-stream") }) { server, manager in
                var actions: [String] = []
                for try await event in try await UserActivityAPI().using(manager).start() { actions.append(event.data.action) }
                #expect(actions == ["x"])
                #expect(recorder.exchanges.first?.response.streamed == true)
                #expect(recorder.exchanges.first?.response.body == nil)

                var replaying = APIManager.Configuration()
                replaying.baseURLOverrides = ["https://api.example.com/v1": server.baseURL + "/v1"]
                replaying.httpTransport = .replaying(Recording(exchanges: recorder.exchanges))
                try await withManager(replaying) { replay in
                    let error = await expectAPIError { try await UserActivityAPI().using(replay).start() }
                    #expect(error?.reason == .notStubbed(request: "GET \(server.baseURL)/v1/users/activity in the recording: its reply streamed, and a recording keeps a streamed reply's head only"))
                }
            }
        }
    }
}
