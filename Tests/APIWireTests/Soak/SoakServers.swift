import APIRuntime
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import WireTestSupport

/// The faults the soak's REST server acts out, chosen by the client in the user id it asks for
/// (`id / SoakFault.stride`), so that each call knows what it should end with.
enum SoakFault: Int, CaseIterable {
    case none, serverError, notFound, garbage, slow, stalled, stalledBody, oversized

    static let stride = 1_000_000

    /// How long a stalled reply holds back: longer than a soak call's timeout.
    static let stall = SoakTests.timeout + .milliseconds(500)
}

/// The tokens the soak's REST server accepts: one at a time, replaced (the old one expiring)
/// every `lifetime` requests.
final class SoakTokens: TokenProvider {
    let lifetime: Int
    /// Guards the current token's generation and the requests it has seen.
    private let state = NIOLockedValueBox((generation: 0, seen: 0))

    init(lifetime: Int) {
        self.lifetime = lifetime
    }

    var current: String { "t\(state.withLockedValue { $0.generation })" }

    /// Counts a request; true when it carried the current token.
    func admits(_ authorization: String?) -> Bool {
        state.withLockedValue { state in
            state.seen += 1
            if state.seen % lifetime == 0 { state.generation += 1 }
            return authorization == "Bearer t\(state.generation)"
        }
    }

    func initialToken() async throws -> String { current }
    func refreshToken(replacing rejected: String) async throws -> String { current }
}

/// The soak's HTTP server: users at `/v1/users/{id}` (behind the rotating token, faulting as the
/// id says) and the JSON-RPC calculator at `…/jsonrpc`.
func startSoakServer(tokens: SoakTokens) async throws -> LoopbackServer {
    try await LoopbackServer.start(recording: false) { request in
        if request.path.hasSuffix("/jsonrpc") { return JSONRPCServer.handle(request) }
        if request.path == "/v1/users/activity" { return endlessEvents() }
        if request.path.hasPrefix("/v1/documents/") {
            return Response(
                status: .ok, headers: [.contentType: "application/pdf", .contentEncoding: "gzip"],
                body: .init(byteBuffer: ByteBuffer(bytes: soakDocumentGzipped))
            )
        }
        guard request.path.hasPrefix("/v1/users/"), let id = Int(request.path.dropFirst("/v1/users/".count)) else {
            return .text("no such path", status: .notFound)
        }
        guard tokens.admits(request.headers[.authorization]) else { return .text("expired", status: .unauthorized) }
        // A call made for one of the soak's users answers with that user's name.
        let name = request.headers[HTTPField.Name("X-User-Token")!] ?? request.headers[.cookie]?.split(separator: "=").last.map(String.init) ?? "Soak"
        let user = #"{"id": \#(id), "name": "\#(name)", "role": "member", "tags": [], "created_at": "2024-01-01T00:00:00Z"}"#
        switch SoakFault(rawValue: id / SoakFault.stride) ?? .none {
        case .none:
            return .json(user)
        case .serverError:
            return .text("overloaded", status: .internalServerError)
        case .notFound:
            return .text("no such user", status: .notFound)
        case .garbage:
            return .json("{\"id\": \"not a number\"")
        case .slow:
            try await Task.sleep(for: .milliseconds(10))
            return .json(user)
        case .stalled:
            try await Task.sleep(for: SoakFault.stall)
            return .json(user)
        case .oversized:
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: oversizedReply))
        case .stalledBody:
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: String(user.prefix(10))))
                try await Task.sleep(for: SoakFault.stall)
                try await writer.write(ByteBuffer(string: String(user.dropFirst(10))))
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: body)
        }
    }
}

/// Whose call a soak call is: a user known by a token of their own, or by a session cookie.
enum SoakUser {
    @TaskLocal static var current: (name: String, byCookie: Bool)?
}

/// Puts the current soak user's credential on the call: `X-User-Token`, or `Cookie: sid=`.
struct SoakUserCredential: APIInterceptor {
    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        guard let user = SoakUser.current else { return request }
        var request = request
        if user.byCookie {
            request.headerFields[.cookie] = "sid=" + user.name
        } else {
            request.headerFields[HTTPField.Name("X-User-Token")!] = user.name
        }
        return request
    }
}

/// Four times what the soak's manager takes: made once, so that the server's own allocations do
/// not count as the client's memory.
let oversizedReply = ByteBuffer(string: "[" + String(repeating: "0,", count: SoakTests.maxResponseBytes * 2) + "0]")

/// The document the soak downloads, and the gzip stream the server sends it as.
let soakDocument = RequestBodyTests.randomBytes(64 << 10)
let soakDocumentGzipped = Gzip.stored(soakDocument)

/// A user's activity as Server-Sent Events, one every millisecond, until the client lets go.
func endlessEvents() -> Response {
    let (events, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(8))
    let producer = Task {
        var id = 0
        while !Task.isCancelled {
            id += 1
            let event = ByteBuffer(string: "id: \(id)\ndata: {\"user_id\": \(id), \"action\": \"soak\", \"at\": \"2024-05-01T12:30:00Z\"}\n\n")
            guard case .enqueued = continuation.yield(event) else { return }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    continuation.onTermination = { _ in producer.cancel() }
    return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .init(asyncSequence: events))
}
