import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
import WireTestSupport

/// Replay after positional parameters are redacted: by what the redacted request still says, then in order.
@Suite("Replay matching after redaction")
struct ReplayMatchingTests {
    /// Answers `echo` with "reply to " and its first parameter, under the request's id.
    static func handle(_ request: WireTestSupport.RecordedRequest) -> Response {
        let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        let first = (object["params"] as? [Any])?.first.map { "\($0)" } ?? ""
        let reply: [String: Any] = ["jsonrpc": "2.0", "result": "reply to \(first)", "id": object["id"] ?? NSNull()]
        let data = (try? JSONSerialization.data(withJSONObject: reply)) ?? Data()
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func echo(_ word: String, baseURL: String) -> BaseAPI<JSONValue> {
        let definition = APIDefinition(name: "Echo", wire: .jsonRPC(JSONRPCMethod("echo", path: "/rpc")), defaults: APIDefaults(baseURL: baseURL))
        return BaseAPI(definition: definition, response: .json, request: RequestBuilder().positional(word))
    }

    @Test("Two calls that differ only in a positional string, which the recording redacts, replay in the order they were recorded")
    func positionalCallsReplayByOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("run.json")
        let server = try await LoopbackServer.start(Self.handle)
        var recording = APIManager.Configuration()
        recording.httpTransport = testHTTPTransport
        recording.interceptors = [try ExchangeRecorder(file: file)]
        try await withManager(recording) { (manager: APIManager) async throws in
            _ = try await Self.echo("swift", baseURL: server.baseURL).using(manager).start()
            _ = try await Self.echo("rust", baseURL: server.baseURL).using(manager).start()
        }
        var replaying = APIManager.Configuration()
        replaying.httpTransport = .replaying(try Recording(contentsOf: file))
        let replies = try await withManager(replaying) { manager in
            [try await Self.echo("swift", baseURL: server.baseURL).using(manager).start(), try await Self.echo("rust", baseURL: server.baseURL).using(manager).start()]
        }
        #expect(replies == [.string("reply to swift"), .string("reply to rust")], "replay answered \(replies)")
    }

    @Test("A recording the previous recorder wrote (positional parameters in clear, no id) still matches the same call")
    func previousRecorderPositional() async throws {
        let old = #"""
            {"exchanges": [{"api": "Echo",
              "request": {"body": "{\"jsonrpc\":\"2.0\",\"method\":\"echo\",\"params\":[\"swift\"]}", "headers": [], "method": "POST", "url": "http://replay.test/rpc"},
              "response": {"body": "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":\"reply to swift\"}", "headers": [{"name": "Content-Type", "value": "application/json"}], "status": 200}}]}
            """#
        var replaying = APIManager.Configuration()
        replaying.httpTransport = .replaying(try JSONDecoder().decode(Recording.self, from: Data(old.utf8)))
        let reply = try await withManager(replaying) { manager in
            try await Self.echo("swift", baseURL: "http://replay.test").using(manager).start()
        }
        #expect(reply == .string("reply to swift"))
    }
}
