import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import SwiftProtobuf
import Testing
import WireTestSupport

@Suite("gRPC against a real grpc-swift server on loopback")
struct GRPCTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A unary call: request and reply messages, metadata both ways, trailers")
    func unary() async throws {
        try await withGRPCServer { server, manager in
            let api = SayHelloAPI { $0.name = "Ada" }.using(manager)
            api.options.headers = [(name: "x-request-id", value: "42"), (name: "x-trace-bin", value: Data([0, 1, 254]).base64EncodedString())]
            let reply = try await api.startWithMetadata()
            #expect(reply.value.message == "Hello Ada")
            // The manifest's metadata and the instance's reached the server…
            let seen = try #require(server.metadataSeen.withLockedValue { $0.last })
            #expect(Array(seen[stringValues: "x-client"]) == ["ExampleClient/1.0"])
            #expect(Array(seen[stringValues: "x-request-id"]) == ["42"])
            #expect(Array(seen[binaryValues: "x-trace-bin"]) == [[0, 1, 254]])
            // …the workspace's HTTP headers did not (they are for REST and JSON-RPC)…
            #expect(seen[stringValues: "accept"].first(where: { _ in true }) == nil)
            // …and the server's initial and trailing metadata came back.
            #expect(reply.headerFields[HTTPField.Name("echo-x-request-id")!] == "42")
            #expect(reply.headerFields[HTTPField.Name("echo-x-client")!] == "ExampleClient/1.0")
            #expect(reply.trailerFields[HTTPField.Name("x-trailer")!] == "done")
            // The same as grpc-swift's Metadata, a -bin value as its bytes.
            #expect(Array(reply.metadata[binaryValues: "echo-x-trace-bin"]) == [[0, 1, 254]])
            #expect(Array(reply.trailingMetadata[stringValues: "x-trailer"]) == ["done"])
            // The status is the call's outcome, not a metadata field.
            #expect(reply.trailerFields[HTTPField.Name("grpc-status")!] == nil)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A status other than OK becomes .grpcStatus naming the API, its message and trailers kept", arguments: [
        (3, "INVALID_ARGUMENT"), (5, "NOT_FOUND"), (7, "PERMISSION_DENIED"), (9, "FAILED_PRECONDITION"),
        (12, "UNIMPLEMENTED"), (13, "INTERNAL"), (14, "UNAVAILABLE"),
        // The server's own deadline ran out, long before the client's: its status and message.
        (4, "DEADLINE_EXCEEDED"), (16, "UNAUTHENTICATED"),
    ])
    func statusCodes(code: Int, name: String) async throws {
        try await withGRPCServer { _, manager in
            let api = SayHelloAPI { $0.name = "fail:\(code):it went 100% wrong ✗" }.using(manager)
            // UNAVAILABLE is retried (the manifest allows 3 attempts): room for sanitizer runs.
            api.options.timeout = .seconds(30)
            let error = await expectAPIError { try await api.start() }
            #expect(error?.api == "SayHello")
            #expect(error?.reason == .grpcStatus(code: GRPCStatusCode(rawValue: code), message: "it went 100% wrong ✗"))
            #expect(error?.grpcStatus?.description == name)
            #expect(error?.description.contains(name) == true)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A server slower than the deadline: .timeout, and the server is told (DEADLINE_EXCEEDED)")
    func deadline() async throws {
        try await withGRPCServer { _, manager in
            let api = SayHelloAPI { $0.name = "slow:20000" }.using(manager)
            api.options.timeout = .milliseconds(300)
            let started = ContinuousClock.now
            let error = await expectAPIError { try await api.start() }
            #expect(error?.reason == .timeout(.milliseconds(300)))
            // Long before the server's 20 s answer, with room for sanitizer runs.
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A 4 MiB message each way")
    func largeMessages() async throws {
        try await withGRPCServer { _, manager in
            let fourMiB = 4 << 20
            let name = String(repeating: "x", count: fourMiB)
            let api = SayHelloAPI { $0.name = name }.using(manager)
            api.options.timeout = .seconds(60)  // room for sanitizer runs on a loaded machine
            let reply = try await api.start()
            #expect(reply.message.utf8.count == fourMiB + 6)
            #expect(reply.message.hasSuffix("xxx"))
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A manager interceptor sees gRPC calls and its metadata reach the server")
    func interceptorSeesGRPC() async throws {
        let seen = NIOLockedValueBox<[String]>([])
        try await withGRPCServer(configure: { $0.interceptors = [RecordingInterceptor(name: "Outer", seen: seen)] }) { server, manager in
            _ = try await SayHelloAPI { $0.name = "Ada" }.using(manager).start()
            _ = try await GetFeatureAPI(point(1, 2)).using(manager).start()
            #expect(seen.withLockedValue { $0 } == ["Outer>grpc:SayHello#1", "Outer<grpc OK", "Outer>grpc:GetFeature#1", "Outer<grpc OK"])
            #expect(server.metadataSeen.withLockedValue { Array($0[0][stringValues: "x-outer"]) } == ["yes"])
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("UNAUTHENTICATED refreshes the token once and sends the call again")
    func tokenRefresh() async throws {
        struct Tokens: TokenProvider {
            func initialToken() async throws -> String { "stale" }
            func refreshToken(replacing rejected: String) async throws -> String { "good" }
        }
        let auth = AuthenticationInterceptor(provider: Tokens())
        try await withGRPCServer(configure: { $0.interceptors = [auth] }) { server, manager in
            let api = SayHelloAPI { $0.name = "auth" }.using(manager)
            // Two exchanges and a refresh: room for a loaded machine, as the other gRPC tests give.
            api.options.timeout = .seconds(30)
            let reply = try await api.start()
            #expect(reply.message == "Hello auth")
            #expect(await auth.refreshCount == 1)
            #expect(server.calls.withLockedValue { $0 } == ["SayHello:auth", "SayHello:auth"])
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("UNAUTHENTICATED on a client stream: its producer runs once; after the refresh the call fails .unauthorized, and started again it succeeds")
    func tokenRefreshClientStream() async throws {
        struct Tokens: TokenProvider {
            func initialToken() async throws -> String { "stale" }
            func refreshToken(replacing rejected: String) async throws -> String { "good" }
        }
        let auth = AuthenticationInterceptor(provider: Tokens())
        let runs = NIOLockedValueBox(0)
        try await withGRPCServer(configure: { $0.interceptors = [auth] }) { server, manager in
            func record() -> RecordRouteAPI {
                RecordRouteAPI(producing: { writer in
                    runs.withLockedValue { $0 += 1 }
                    try await writer.write(point(1, 1))
                }).using(manager)
            }
            let error = await expectAPIError { try await record().start() }
            #expect(error?.reason == .unauthorized(
                message: "the server refused the credentials, and the request's body is read once, so it was not sent again; the token is refreshed: start the call again"
            ))
            #expect(runs.withLockedValue { $0 } == 1)
            #expect(await auth.refreshCount == 1)
            let summary = try await record().start()
            #expect(summary.pointCount == 1)
            #expect(runs.withLockedValue { $0 } == 2)
            #expect(server.calls.withLockedValue { $0 } == ["RecordRoute", "RecordRoute"])
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("UNAVAILABLE is retried for a method its proto marks free of side effects")
    func retriesUnavailable() async throws {
        try await withGRPCServer { server, manager in
            let api = SayHelloAPI { $0.name = "flaky:2" }.using(manager)
            // Three attempts and their pauses inside the manifest's 10 s timed out once in CI with
            // 380 tests running beside it: room for a loaded machine, as statusCodes has.
            api.options.timeout = .seconds(30)
            let reply = try await api.start()
            #expect(reply.message == "Hello flaky:2")
            #expect(server.calls.withLockedValue { $0.count } == 3)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Server streaming: every message in order, then the trailers")
    func serverStreaming() async throws {
        try await withGRPCServer { _, manager in
            let stream = try await ListFeaturesAPI(rectangle(from: 0, to: 5)).using(manager).start()
            var names: [String] = []
            for try await feature in stream {
                names.append(feature.name)
                #expect(feature.details.tags == ["a", "b"])
            }
            #expect(names == (0..<5).map { "feature \($0),0" })
            #expect(stream.trailerFields?[HTTPField.Name("x-count")!] == "5")
            #expect(stream.trailerFields?[HTTPField.Name("grpc-status")!] == nil)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Leaving a stream early cancels the call on the server")
    func cancelMidStream() async throws {
        try await withGRPCServer { server, manager in
            let stream = try await ListFeaturesAPI(rectangle(from: 0, to: 1_000_000, pacing: 2)).using(manager).start()
            var count = 0
            for try await _ in stream {
                count += 1
                if count == 3 { break }
            }
            stream.cancel()
            try await waitUntil { server.streamEndings.withLockedValue { $0 } == ["cancelled"] }
            #expect(count == 3)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Cancelling the reading task ends the stream with .cancelled and stops the server's handler")
    func cancelReadingTask() async throws {
        try await withGRPCServer { server, manager in
            let stream = try await ListFeaturesAPI(rectangle(from: 0, to: 1_000_000, pacing: 2)).using(manager).start()
            let received = NIOLockedValueBox(0)
            let reader = Task {
                for try await _ in stream { received.withLockedValue { $0 += 1 } }
            }
            try await waitUntil { received.withLockedValue { $0 } >= 2 }
            reader.cancel()
            let outcome = await reader.result
            #expect((try? outcome.get()) == nil)
            if case .failure(let error as APIError) = outcome { #expect(error.reason == .cancelled) }
            try await waitUntil { server.streamEndings.withLockedValue { $0 } == ["cancelled"] }
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A stream's deadline covers the whole stream")
    func streamDeadline() async throws {
        try await withGRPCServer { _, manager in
            // 1,000 features 20 ms apart would take 20 s; the deadline ends the stream after 1.5 s.
            let api = ListFeaturesAPI(rectangle(from: 0, to: 1_000, pacing: 20)).using(manager)
            api.options.timeout = .milliseconds(1500)
            var received = 0
            let error = await expectAPIError { for try await _ in try await api.start() { received += 1 } }
            #expect(error?.reason == .timeout(.milliseconds(1500)))
            #expect(error?.api == "ListFeatures")
            #expect(received < 1_000)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A stream whose head comes after the deadline: .timeout, not the status grpc-swift's cancelling leaves")
    func streamDeadlineBeforeHead() async throws {
        try await withGRPCServer { _, manager in
            // grpc-swift ends a call whose deadline passes by cancelling it; before the head has
            // arrived that surfaces as UNKNOWN ("the transport threw an unexpected error").
            // (Under a loaded sanitizer run the call may not even reach the server in time: the
            // same path, no head before the deadline.)
            let api = ListFeaturesAPI(rectangle(from: 0, to: 10, headAfter: 20_000)).using(manager)
            api.options.timeout = .seconds(1)
            let error = await expectAPIError { for try await _ in try await api.start() {} }
            #expect(error?.reason == .timeout(.seconds(1)))
            #expect(error?.api == "ListFeatures")
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Client streaming: messages written as the call goes, one summary back")
    func clientStreaming() async throws {
        try await withGRPCServer { _, manager in
            let summary = try await RecordRouteAPI(producing: { writer in
                for latitude in [0, 10, 30] as [Int32] { try await writer.write(point(latitude, 5)) }
                try await writer.write(point(30, 15))
            }).using(manager).start()
            #expect(summary.pointCount == 4)
            #expect(summary.distance == 40)
            #expect(summary.elapsedTime == Google_Protobuf_Duration(seconds: 1, nanos: 500_000_000))
            let fromList = try await RecordRouteAPI([point(1), point(2)]).using(manager).start()
            #expect(fromList.pointCount == 2)
        }
    }

    /// RouteChat sending each of `words` as a note, as they come.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    static func routeChat(sending words: AsyncStream<String>) -> RouteChatAPI {
        RouteChatAPI(producing: { writer in
            for await word in words {
                var note = Routeguide_RouteNote()
                note.message = word
                try await writer.write(note)
            }
        })
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Bidirectional streaming: each note answered while the client still writes")
    func bidirectional() async throws {
        try await withGRPCServer { _, manager in
            let (words, sender) = AsyncStream.makeStream(of: String.self)
            let stream = try await Self.routeChat(sending: words).using(manager).start()
            var answers: [String] = []
            sender.yield("one")
            for try await note in stream {
                answers.append(note.message)
                #expect(note.sentAt.seconds == 1_700_000_000)
                // The next note goes only after the answer to the last one came back: a real exchange.
                if answers.count < 3 { sender.yield(["one", "two", "three"][answers.count]) } else { sender.finish() }
            }
            #expect(answers == ["echo: one", "echo: two", "echo: three"])
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("An open bidirectional stream goes on when its session is the least recently used and another host is called")
    func openStreamIsNotEvicted() async throws {
        let other = try await LoopbackServer.start { _ in .text("other") }
        try await withGRPCServer(configure: { $0.maxSessions = 1 }) { _, manager in
            let (words, sender) = AsyncStream.makeStream(of: String.self)
            let stream = try await Self.routeChat(sending: words).using(manager).start()
            var answers = stream.makeAsyncIterator()
            sender.yield("one")
            #expect(try await answers.next()?.message == "echo: one")

            // A second host, with room for one session: the stream's session is the one to go.
            let definition = APIDefinition(name: "Other", method: .get, path: "/other", defaults: APIDefaults(baseURL: other.baseURL))
            #expect(try await BaseAPI(definition: definition, response: .text).using(manager).start() == "other")
            #expect(manager.sessionCount == 1)

            sender.yield("two")
            #expect(try await answers.next()?.message == "echo: two")
            sender.finish()
            #expect(try await answers.next() == nil)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("One client per target, reused by every call and kind of call")
    func oneSessionPerTarget() async throws {
        try await withGRPCServer { server, manager in
            for _ in 0..<5 { _ = try await SayHelloAPI { $0.name = "Ada" }.using(manager).start() }
            _ = try await GetFeatureAPI(point(1)).using(manager).start()
            for try await _ in try await ListFeaturesAPI(rectangle(from: 0, to: 2)).using(manager).start() {}
            #expect(manager.sessionCount == 1)
            let other = try await GRPCTestServer.start()
            let api = SayHelloAPI { $0.name = "Bob" }.using(manager)
            api.options.baseURL = other.baseURL
            _ = try await api.start()
            #expect(manager.sessionCount == 2)
            #expect(server.calls.withLockedValue { $0.count } == 7)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("No server: UNAVAILABLE naming the API, no hang")
    func noServer() async throws {
        try await withGRPCServer { _, manager in
            let api = SayHelloAPI { $0.name = "Ada" }.using(manager)
            api.options.baseURL = "grpc://127.0.0.1:1"
            // Ample, so that a slow machine cannot turn the refused connection into a timeout.
            api.options.timeout = .seconds(30)
            let error = await expectAPIError { try await api.start() }
            #expect(error?.api == "SayHello")
            #expect(error?.grpcStatus == .unavailable)
        }
    }
}
