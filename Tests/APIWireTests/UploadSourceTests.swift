import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// Where an upload's bytes come from, when that is not simple: a symbolic link, a body that never
/// ends.
@Suite("Upload sources on a loopback server")
struct UploadSourceTests {
    @Test("A file behind a symbolic link is measured and sent as the file, whole and body or part")
    func symbolicLink() async throws {
        let folder = try ResponseBodyTests.makeFolder()
        let file = folder.appendingPathComponent("report.pdf")
        let link = folder.appendingPathComponent("latest.pdf")
        let document = RequestBodyTests.randomBytes(300 << 10)
        try document.write(to: file)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        try await withServer({ request in
            request.path.hasPrefix("/v1/users/") ? .json(Samples.userJSON) : Response(status: .noContent)
        }) { server, manager in
            try await UploadDocumentAPI(name: "latest.pdf", document: HTTPBody(contentsOf: link)).using(manager).start()
            #expect(server.requests.last?.body == document)
            #expect(server.requests.last?.headers[.contentLength] == "\(document.count)")
            _ = try await UploadAvatarAPI(id: 7, photo: UploadFile(contentsOf: link)).using(manager).start()
            let form = try #require(server.requests.last)
            #expect(form.body.count > document.count)
            #expect(form.headers[.contentLength] == "\(form.body.count)")
        }
    }

    /// 2 GiB in 64 KiB chunks made at once, counting what is taken: a source that never looks at
    /// cancellation (a file read does not either), large enough that the deadline comes first.
    struct Endless: AsyncSequence, Sendable {
        static let total: Int64 = 2 << 30
        let taken: NIOLockedValueBox<Int64>

        struct AsyncIterator: AsyncIteratorProtocol {
            let taken: NIOLockedValueBox<Int64>

            mutating func next() async -> Data? {
                let more = taken.withLockedValue { taken in
                    guard taken < Endless.total else { return false }
                    taken += 64 << 10
                    return true
                }
                return more ? Data(count: 64 << 10) : nil
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(taken: taken) }
    }

    @Test("A body URLSession must first write to a file stops at the call's deadline, not at the body's end", .timeLimit(.minutes(2)))
    func stagingStopsAtTheDeadline() async throws {
        try await withServer(configure: { $0.httpTransport = .urlSession }, { _ in Response(status: .noContent) }) { server, manager in
            let taken = NIOLockedValueBox<Int64>(0)
            let api = UploadDocumentAPI(name: "endless", document: HTTPBody(Endless(taken: taken))).using(manager)
            api.options.timeout = .milliseconds(300)
            let error = await expectAPIError { try await api.start() }
            #expect(error?.reason == .timeout(.milliseconds(300)))
            #expect(taken.withLockedValue { $0 } < Endless.total, "stopped at the deadline, not after the whole body")
            #expect(server.requests.isEmpty)
        }
    }
}
