import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// A reply body nobody reads any more is cancelled, and its connection closed: the server sees
/// its response given up, having sent little of it.
@Suite("Abandoned bodies on a loopback server")
struct AbandonedBodyTests {
    /// What an endless response told the test: how much it made, and whether the client let go.
    final class Producer: Sendable {
        let made = NIOLockedValueBox<Int>(0)
        let abandoned = NIOLockedValueBox(false)

        /// 64 KiB chunks until the client lets go, announced as a gigabyte.
        func response(status: HTTPResponse.Status = .ok) -> Response {
            let (chunks, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(4))
            continuation.onTermination = { [abandoned] _ in abandoned.withLockedValue { $0 = true } }
            Task { [made] in
                while !Task.isCancelled {
                    guard case .enqueued = continuation.yield(ByteBuffer(repeating: 120, count: 64 << 10)) else { return }
                    made.withLockedValue { $0 += 64 << 10 }
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            return Response(status: status, headers: [.contentLength: "\(1 << 30)", .contentType: "application/json"], body: .init(asyncSequence: chunks))
        }
    }

    @Test("A reply larger than maxResponseBytes fails, and its connection is closed, not left receiving", .timeLimit(.minutes(1)))
    func tooLarge() async throws {
        let producer = Producer()
        try await withServer({ _ in producer.response() }) { server, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .invalidResponse(message: "the body is larger than 67108864 bytes"))
            try await waitUntil { producer.abandoned.withLockedValue { $0 } }
            #expect(producer.made.withLockedValue { $0 } < 256 << 20)
        }
    }

    @Test("A download whose writing fails lets go of its body", .timeLimit(.minutes(1)))
    func failedDownload() async throws {
        let producer = Producer()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID().uuidString)/file.bin")
        try await withServer({ _ in producer.response() }) { server, manager in
            let error = await expectAPIError { try await DownloadDocumentAPI(name: "file.bin", destination: missing).using(manager).start() }
            guard case .invalidRequest? = error?.reason else {
                Issue.record("expected .invalidRequest, got \(String(describing: error))")
                return
            }
            try await waitUntil { producer.abandoned.withLockedValue { $0 } }
        }
    }
}
