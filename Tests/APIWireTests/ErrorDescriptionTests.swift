import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Testing
import WireTestSupport

/// A server that echoes what it was sent (a password, a token) in its error replies must not put
/// it in `print(error)`: an error's `description` says what failed, never what the server wrote;
/// `detailedDescription` quotes it for a developer reading one error.
@Suite("Error descriptions quote nothing the server wrote")
struct ErrorDescriptionTests {
    static let secret = "SECRET-ECHO-4711"

    /// A reply that carries the secret, and what the error's detailed description adds.
    struct Reply: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        let status: HTTPResponse.Status
        /// Whether `detailedDescription` quotes the server's words (a body or an error message).
        let detailed: Bool
        var testDescription: String { name }
    }

    static let jsonRPCReplies = [
        Reply(name: "an error object's message", body: #"{"jsonrpc": "2.0", "error": {"code": -32602, "message": "bad password \#(secret)"}, "id": 1}"#, status: .ok, detailed: true),
        Reply(name: "an error object without a code", body: #"{"jsonrpc": "2.0", "error": {"message": "\#(secret)"}, "id": 1}"#, status: .ok, detailed: false),
        Reply(name: "a reply that is not JSON", body: "<html>\(secret)</html>", status: .ok, detailed: false),
        Reply(name: "another id", body: #"{"jsonrpc": "2.0", "result": 1, "id": "\#(secret)"}"#, status: .ok, detailed: false),
        Reply(name: "another version", body: #"{"jsonrpc": "\#(secret)", "result": 1, "id": 1}"#, status: .ok, detailed: false),
        Reply(name: "an error status", body: #"{"detail": "\#(secret)"}"#, status: .internalServerError, detailed: true),
    ]

    @Test("JSON-RPC replies", arguments: jsonRPCReplies)
    func jsonRPC(reply: Reply) async throws {
        try await withServer({ _ in .text(reply.body, status: reply.status, contentType: "application/json") }) { _, manager in
            let error = try #require(await expectAPIError { try await SubtractAPI(minuend: 42, subtrahend: 23).using(manager).start() })
            Self.expectNoSecret(in: error, detailed: reply.detailed)
        }
    }

    @Test("A value that does not decode (a date), and an error status's body")
    func rest() async throws {
        let user = #"{"id": 7, "name": "Ann", "role": "member", "tags": [], "created_at": "\#(Self.secret)"}"#
        try await withServer({ request in
            request.path.hasSuffix("/7") ? .json(user) : .json(#"{"error": "\#(Self.secret)"}"#, status: .notFound)
        }) { _, manager in
            let decoding = try #require(await expectAPIError { try await GetUserAPI(id: 7).using(manager).start() })
            guard case .decoding(let path, _) = decoding.reason else {
                Issue.record("expected .decoding, got \(decoding)")
                return
            }
            #expect(path == "created_at")
            Self.expectNoSecret(in: decoding, detailed: false)
            let status = try #require(await expectAPIError { try await GetUserAPI(id: 8).using(manager).start() })
            Self.expectNoSecret(in: status, detailed: true)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A gRPC status's message")
    func grpcStatus() async throws {
        try await withGRPCServer { _, manager in
            let api = SayHelloAPI { $0.name = "fail:7:denied for \(Self.secret)" }.using(manager)
            // Room for a loaded machine, as the other gRPC tests give.
            api.options.timeout = .seconds(30)
            let error = try #require(await expectAPIError { try await api.start() })
            #expect(error.grpcStatus == .permissionDenied)
            #expect(error.description == "SayHello: gRPC status PERMISSION_DENIED (7)")
            Self.expectNoSecret(in: error, detailed: true)
        }
    }

    static func expectNoSecret(in error: APIError, detailed: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!error.description.contains(secret), "\(error)", sourceLocation: sourceLocation)
        #expect(!error.reason.description.contains(secret), "\(error.reason)", sourceLocation: sourceLocation)
        #expect(error.detailedDescription.contains(secret) == detailed, "\(error.detailedDescription)", sourceLocation: sourceLocation)
    }
}
