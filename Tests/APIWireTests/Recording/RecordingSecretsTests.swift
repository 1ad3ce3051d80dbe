import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
import WireTestSupport

/// A secret in every place a call carries one, recorded against a loopback server: none reaches
/// the file, numbers keep every digit, and a batch replays whatever ids the run gave it.
@Suite("Recordings hold no secret")
struct RecordingSecretsTests {
    /// A JWT's shape, which is a credential whatever its name.
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJKV1QtU0VDUkVUIn0.c2lnbmF0dXJlLVNFQ1JFVA"

    static func handle(_ request: WireTestSupport.RecordedRequest) -> Response {
        switch request.path {
        case "/token":
            return Response(status: .ok, headers: [.contentType: "application/x-www-form-urlencoded"],
                            body: .init(byteBuffer: ByteBuffer(string: "access_token=FORM-SECRET&expires_in=3600")))
        case "/session":
            return Response(status: .ok, headers: [.contentType: "application/json", HTTPField.Name("X-Context")!: jwt],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"token":"TOKEN-SECRET","access":"ACCESS-SECRET","refresh":"REFRESH-SECRET","id_jwt":"NAMED-JWT-SECRET","nested":{"note":"\#(jwt)"},"code":200,"amount":1.000000000000000001}"#)))
        case "/motd":
            return .text("Your session: \(jwt). Keep it safe.")
        case "/rpc":
            return JSONRPCServer.handle(request)
        default:
            return .text("ok")
        }
    }

    /// An API whose reply is its body's bytes as text, whatever its content type says.
    static func api(_ name: String, _ method: HTTPRequest.Method, _ path: String, _ server: LoopbackServer, request: RequestBuilder = RequestBuilder()) -> BaseAPI<String> {
        let definition = APIDefinition(name: name, method: method, path: path, defaults: APIDefaults(baseURL: server.baseURL))
        return BaseAPI(definition: definition, response: .reply { response, _ in String(decoding: response.body, as: UTF8.self) }, request: request)
    }

    static func rpc(_ method: String, _ server: LoopbackServer, _ parameters: [any Encodable & Sendable]) -> BaseAPI<JSONValue> {
        var request = RequestBuilder()
        for parameter in parameters { request = request.positional(parameter) }
        let definition = APIDefinition(name: method.capitalized, wire: .jsonRPC(JSONRPCMethod(method, path: "/rpc")), defaults: APIDefaults(baseURL: server.baseURL))
        return BaseAPI(definition: definition, response: .json, request: request)
    }

    @Test("Form replies, token-shaped values in any member, header or text, access and refresh, an OAuth code, positional parameters: none reaches the file; numbers keep their digits on replay")
    func noSecretInTheFile() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let file = folder.appendingPathComponent("run.json")
            let server = try await LoopbackServer.start(Self.handle)
            let recorder = try ExchangeRecorder(file: file)
            var configuration = APIManager.Configuration()
            configuration.httpTransport = testHTTPTransport
            configuration.interceptors = [recorder]

            func run(_ manager: APIManager) async throws -> [String] {
                var outcomes = [
                    try await Self.api("Token", .post, "/token", server).using(manager).start(),
                    try await Self.api("Session", .get, "/session", server).using(manager).start(),
                    try await Self.api("Motd", .get, "/motd", server).using(manager).start(),
                    try await Self.api("Callback", .get, "/callback", server, request: RequestBuilder().query("code", "OAUTH-CODE-SECRET").query("state", "visible")).using(manager).start(),
                ]
                let login = await expectAPIError { try await Self.rpc("login", server, ["alice", "POSITIONAL-SECRET"]).using(manager).start() }
                outcomes.append("\(login?.reason as Any)")
                outcomes.append("\(try await Self.rpc("subtract", server, [42, 23]).using(manager).start())")
                return outcomes
            }

            let recorded = try await withManager(configuration) { manager in try await run(manager) }
            let text = try String(contentsOf: file, encoding: .utf8)
            for secret in ["FORM-SECRET", "TOKEN-SECRET", "ACCESS-SECRET", "REFRESH-SECRET", "NAMED-JWT-SECRET", "JWT-SECRET", Self.jwt, "OAUTH-CODE-SECRET", "POSITIONAL-SECRET"] {
                #expect(!text.contains(secret), "\(secret) reached the recording")
            }
            // Base64 hides nothing here: no body was recorded as bytes.
            #expect(!text.contains("bodyBase64"))
            // What is not secret stays byte for byte: a status code under `code`, every digit of a number.
            let session = try #require(recorder.exchanges.first { $0.api == "Session" }?.response.body)
            #expect(session.contains(#""code":200,"amount":1.000000000000000001"#), "\(session)")
            #expect(recorded[2] == "Your session: \(Self.jwt). Keep it safe.")

            var replaying = APIManager.Configuration()
            replaying.httpTransport = .replaying(try Recording(contentsOf: file))
            let replayed = try await withManager(replaying) { manager in try await run(manager) }
            #expect(replayed[1].contains(#""amount":1.000000000000000001"#), "\(replayed[1])")
            #expect(replayed[2] == "Your session: <redacted>. Keep it safe.")
            #expect(replayed[5] == recorded[5])
        }
    }

    @Test("A JSON-RPC batch replays after other calls have moved the ids on: matched by what it asks, answered with the run's ids")
    func batchReplaysWithOtherIDs() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let file = folder.appendingPathComponent("batch.json")
            let server = try await LoopbackServer.start(Self.handle)
            func sendBatch(_ manager: APIManager) async throws -> [Int] {
                let batch = JSONRPCBatch(manager: manager)
                let difference = batch.add(Self.rpc("subtract", server, [42, 23]))
                let sum = batch.add(Self.rpc("sum", server, [1, 2, 3]))
                try await batch.send()
                return try [difference.get(), sum.get()].map { value in
                    guard case .integer(let number) = value else { throw APIError(api: "test", reason: .invalidResponse(message: "not a number")) }
                    return Int(number)
                }
            }
            var recording = APIManager.Configuration()
            recording.httpTransport = testHTTPTransport
            recording.interceptors = [try ExchangeRecorder(file: file)]
            #expect(try await withManager(recording) { manager in try await sendBatch(manager) } == [19, 6])

            var replaying = APIManager.Configuration()
            replaying.httpTransport = .replaying(try Recording(contentsOf: file))
            try await withManager(replaying) { (manager: APIManager) async throws in
                // Calls the recording does not hold take ids first, so that the batch's differ.
                for _ in 0..<3 { _ = try? await Self.rpc("sum", server, [9]).using(manager).start() }
                #expect(try await sendBatch(manager) == [19, 6])
            }
        }
    }

    @Test("A JSON reply with one byte that is not UTF-8 keeps its token out of the recording")
    func recorderNonUTF8JSON() async throws {
        var built = Data(#"{"token":"RECORDED-SECRET-1","name":"caf"#.utf8)
        built.append(0xE9)
        built.append(contentsOf: Data(#""}"#.utf8))
        let body = built
        try await withTemporaryFolder { (folder: URL) async throws in
            let file = folder.appendingPathComponent("rec.json")
            let recorder = try ExchangeRecorder(file: file)
            try await withServer(configure: { $0.interceptors = [recorder] }, { _ in
                Response(status: .ok, headers: [.contentType: "application/json; charset=iso-8859-1"], body: .init(byteBuffer: ByteBuffer(bytes: [UInt8](body))))
            }) { (server: LoopbackServer, manager: APIManager) async throws in
                let definition = APIDefinition(name: "Login", wire: .http(.get, path: "/login"), defaults: APIDefaults(baseURL: server.baseURL))
                _ = try? await BaseAPI(definition: definition, response: .text).using(manager).start()
                try Self.expectAbsent("RECORDED-SECRET-1", from: file)
            }
        }
    }

    @Test("A secret query item inside a reply's Location header is redacted")
    func recorderLocationHeader() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let file = folder.appendingPathComponent("rec.json")
            let recorder = try ExchangeRecorder(file: file)
            try await withServer(configure: { $0.interceptors = [recorder] }, { _ in
                Response(status: .created, headers: [.location: "/files/1?access_token=LOCATION-SECRET-2&x=1", .contentType: "text/plain"])
            }) { (server: LoopbackServer, manager: APIManager) async throws in
                let definition = APIDefinition(name: "Upload", wire: .http(.post, path: "/files"), defaults: APIDefaults(baseURL: server.baseURL))
                _ = try? await BaseAPI(definition: definition, response: .text).using(manager).start()
                try Self.expectAbsent("LOCATION-SECRET-2", from: file)
            }
        }
    }

    /// Fails when `secret` is in `file`, as text or in any base64 body it holds.
    static func expectAbsent(_ secret: String, from file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains(secret), "the recording holds \(secret) in clear")
        let recording = try Recording(contentsOf: file)
        for exchange in recording.exchanges {
            if let base64 = exchange.response.bodyBase64, let bytes = Data(base64Encoded: base64) {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "the recording holds \(secret) in a base64 body")
            }
        }
    }
}
