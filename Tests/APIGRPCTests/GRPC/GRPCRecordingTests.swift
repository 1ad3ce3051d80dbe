import APIGRPC
import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import Testing
import WireTestSupport

/// Unary gRPC calls recorded against a real grpc-swift server, and replayed without it.
@Suite("Record and replay over gRPC")
struct GRPCRecordingTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Messages, metadata and a status come back from the recording, and the server sees nothing more")
    func unary() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let file = folder.appendingPathComponent("grpc.json")
            // Its messages hold no secret: recorded as asked, to be replayed.
            let recorder = try ExchangeRecorder(file: file, recordsGRPCMessages: true)

            func run(_ manager: APIManager) async throws -> [String] {
                let hello = try await SayHelloAPI { $0.name = "Ada" }.using(manager).startWithMetadata()
                let feature = try await GetFeatureAPI(point(409_146_138, -746_188_906)).using(manager).start()
                let refused = await expectAPIError { try await SayHelloAPI { $0.name = "fail:5:not here" }.using(manager).start() }
                return [hello.value.message, "\(hello.headerFields.count)", feature.name, "\(refused?.reason as Any)"]
            }

            try await withGRPCServer(configure: { $0.interceptors = [recorder] }) { server, manager in
                let recorded = try await run(manager)
                #expect(recorded[0] == "Hello Ada")
                #expect(recorder.exchanges.map(\.api) == ["SayHello", "GetFeature", "SayHello"])
                #expect(recorder.exchanges.last?.response.grpcStatus == 5)
                let sent = server.calls.withLockedValue { $0.count }

                var replaying = APIManager.Configuration()
                replaying.baseURLOverrides = ["grpc://localhost:50051": server.baseURL, "grpc://localhost:50052": server.baseURL]
                replaying.grpcTransport = .replaying(try Recording(contentsOf: file))
                try await withManager(replaying) { replay in
                    let replayed = try await run(replay)
                    #expect(replayed == recorded)
                    let other = await expectAPIError { try await SayHelloAPI { $0.name = "Bob" }.using(replay).start() }
                    #expect(other?.reason.isNotStubbed == true)
                }
                #expect(server.calls.withLockedValue { $0.count } == sent)
            }
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Unless asked, a gRPC message is not recorded, as its bytes name no field to redact by; replaying its reply says so")
    func messagesLeftOut() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let file = folder.appendingPathComponent("grpc.json")
            let recorder = try ExchangeRecorder(file: file)
            try await withGRPCServer(configure: { $0.interceptors = [recorder] }) { server, manager in
                #expect(try await SayHelloAPI { $0.name = "GRPC-SECRET" }.using(manager).start().message == "Hello GRPC-SECRET")
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains("GRPC-SECRET") && !text.contains(Data("GRPC-SECRET".utf8).base64EncodedString().prefix(12)))
                #expect(!text.contains("bodyBase64"))

                var replaying = APIManager.Configuration()
                replaying.baseURLOverrides = ["grpc://localhost:50051": server.baseURL]
                replaying.grpcTransport = .replaying(try Recording(contentsOf: file))
                try await withManager(replaying) { replay in
                    let error = await expectAPIError { try await SayHelloAPI { $0.name = "anyone" }.using(replay).start() }
                    guard let reason = error?.reason, case .notStubbed(let request) = reason else {
                        Issue.record("expected notStubbed, got \(String(describing: error))")
                        return
                    }
                    #expect(request.contains("recordsGRPCMessages: true"))
                }
            }
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A token a gRPC server quotes in its status message (a JWT) is redacted in the recording, as it is in a text reply")
    func statusMessageToken() async throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLXNlY3JldA"
        try await withTemporaryFolder { (folder: URL) async throws in
            let file = folder.appendingPathComponent("grpc.json")
            let recorder = try ExchangeRecorder(file: file)
            try await withGRPCServer(configure: { $0.interceptors = [recorder] }) { _, manager in
                _ = await expectAPIError { try await SayHelloAPI { $0.name = "fail:16:token \(jwt) has expired" }.using(manager).start() }
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains(jwt), "the recording holds the token: \(text)")
            }
        }
    }
}

extension APIError.Reason {
    var isNotStubbed: Bool {
        if case .notStubbed = self { return true }
        return false
    }
}
