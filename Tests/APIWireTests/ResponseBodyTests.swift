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

/// Reply bodies that are not decoded from JSON: raw bytes, and downloads written to a file.
@Suite("Response bodies on a loopback server")
struct ResponseBodyTests {
    /// A folder of its own for each test, so that what a download leaves behind can be listed.
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("A download is written to its destination whole, replacing the file there, and leaves nothing else")
    func download() async throws {
        let document = RequestBodyTests.randomBytes(2 << 20)
        let folder = try Self.makeFolder()
        let destination = folder.appendingPathComponent("q3.pdf")
        try Data("old".utf8).write(to: destination)
        try await withServer({ _ in Response(status: .ok, headers: [.contentType: "application/pdf"], body: .init(byteBuffer: ByteBuffer(bytes: document))) }) { server, manager in
            let saved = try await DownloadDocumentAPI(name: "q3.pdf", destination: destination).using(manager).start()
            #expect(saved == destination)
            #expect(try Data(contentsOf: destination) == document)
            let left = try Self.contents(of: folder)
            #expect(left == ["q3.pdf"])
            #expect(server.requests.first?.target == "/v1/documents/q3.pdf")
        }
    }

    @Test("A download cancelled midway leaves nothing at its destination")
    func cancelledDownload() async throws {
        let folder = try Self.makeFolder()
        let destination = folder.appendingPathComponent("big.bin")
        let sent = NIOLockedValueBox(0)
        try await withServer({ _ in
            // 64 KiB now, then the rest never: the reader waits mid-body.
            let chunks = AsyncStream<ByteBuffer> { continuation in
                continuation.yield(ByteBuffer(repeating: 1, count: 64 << 10))
                sent.withLockedValue { $0 += 1 }
            }
            return Response(status: .ok, headers: [.contentLength: "\(1 << 30)"], body: .init(asyncSequence: chunks))
        }) { _, manager in
            let api = DownloadDocumentAPI(name: "big.bin", destination: destination).using(manager)
            let saved = Task { try await api.start() }
            // Cancelled once the download has begun writing near its destination.
            try await waitUntil { sent.withLockedValue({ $0 }) > 0 && (try? Self.contents(of: folder))?.isEmpty == false }
            api.cancel()
            let error = await expectAPIError { _ = try await saved.value }
            #expect(error?.reason == .cancelled)
            let left = try Self.contents(of: folder)
            #expect(left == [], "neither the destination nor a partial file is left")
        }
    }

    @Test("A server that stops sending mid-body cannot hold a download past its deadline")
    func stalledDownload() async throws {
        let folder = try Self.makeFolder()
        let destination = folder.appendingPathComponent("stalled.bin")
        try await withServer({ _ in
            let chunks = AsyncStream<ByteBuffer> { $0.yield(ByteBuffer(repeating: 1, count: 1024)) }
            return Response(status: .ok, headers: [.contentLength: "\(1 << 20)"], body: .init(asyncSequence: chunks))
        }) { _, manager in
            let api = DownloadDocumentAPI(name: "stalled.bin", destination: destination).using(manager)
            api.options.timeout = .milliseconds(300)
            let error = await expectAPIError { try await api.start() }
            #expect(error?.reason == .timeout(.milliseconds(300)))
            let left = try Self.contents(of: folder)
            #expect(left == [])
        }
    }

    @Test("A body cut short of its Content-Length is an error, and the file is not written")
    func truncatedDownload() async throws {
        let folder = try Self.makeFolder()
        let destination = folder.appendingPathComponent("cut.bin")
        let server = try await RawServer.start(reply: "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "x", count: 1000))
        var configuration = APIManager.Configuration()
        configuration.httpTransport = testHTTPTransport
        configuration.baseURLOverrides = ["https://api.example.com/v1": server.baseURL + "/v1"]
        try await withManager(configuration) { manager throws in
            let error = await expectAPIError { _ = try await DownloadDocumentAPI(name: "cut.bin", destination: destination).using(manager).start() }
            #expect(error?.api == "DownloadDocument")
            switch error?.reason {
            case .transport?, .invalidResponse?: break
            default: Issue.record("expected a transport or invalid-response error, got \(String(describing: error))")
            }
            let left = try Self.contents(of: folder)
            #expect(left == [])
        }
    }

    @Test("A download answered with an error status is .httpStatus and writes nothing")
    func downloadNotFound() async throws {
        let folder = try Self.makeFolder()
        let destination = folder.appendingPathComponent("none.pdf")
        try await withServer({ _ in .json(#"{"error": "no such document"}"#, status: .notFound) }) { _, manager in
            let error = await expectAPIError { _ = try await DownloadDocumentAPI(name: "none.pdf", destination: destination).using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 404, body: Data(#"{"error": "no such document"}"#.utf8)))
            let left = try Self.contents(of: folder)
            #expect(left == [])
        }
    }

    @Test("response: bytes returns the body as it is, with its content type in the metadata")
    func rawBytes() async throws {
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0) })
        try await withServer({ _ in Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: bytes))) }) { _, manager in
            let reply = try await DocumentBytesAPI(name: "a.png").using(manager).startWithMetadata()
            #expect(reply.value == bytes)
            #expect(reply.headerFields[.contentType] == "image/png")
        }
    }
}

/// `options.progress` on the wire: both directions reach their totals, in order.
@Suite("Transfer progress on a loopback server")
struct TransferProgressTests {
    final class Recorder: Sendable {
        let reports = NIOLockedValueBox<[TransferProgress]>([])
        var handler: @Sendable (TransferProgress) -> Void { { [reports] progress in reports.withLockedValue { $0.append(progress) } } }
        func reports(_ direction: TransferProgress.Direction) -> [TransferProgress] {
            reports.withLockedValue { $0 }.filter { $0.direction == direction }
        }
    }

    @Test("An upload's progress rises to its total, from a file and from memory")
    func uploadProgress() async throws {
        let contents = RequestBodyTests.randomBytes(1 << 20)
        let file = try RequestBodyTests.temporaryFile(named: "progress.pdf", contents: contents)
        try await withServer({ _ in Response(status: .noContent) }) { _, manager in
            for body in [try HTTPBody(contentsOf: file), HTTPBody(contents)] {
                let recorder = Recorder()
                let api = UploadDocumentAPI(name: "p.pdf", document: body).using(manager)
                api.options.progress = recorder.handler
                try await api.start()
                let uploads = recorder.reports(.upload)
                #expect(uploads.count > 1, "progress moves in steps, not all at once")
                #expect(uploads.map(\.completedBytes) == uploads.map(\.completedBytes).sorted())
                #expect(uploads.last == TransferProgress(direction: .upload, completedBytes: Int64(contents.count), expectedBytes: Int64(contents.count)))
                #expect(uploads.last?.fractionCompleted == 1)
            }
        }
    }

    @Test("A download's progress rises to its Content-Length")
    func downloadProgress() async throws {
        let document = RequestBodyTests.randomBytes(1 << 20)
        let folder = try ResponseBodyTests.makeFolder()
        try await withServer({ _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: document))) }) { _, manager in
            let recorder = Recorder()
            let api = DownloadDocumentAPI(name: "d.bin", destination: folder.appendingPathComponent("d.bin")).using(manager)
            api.options.progress = recorder.handler
            _ = try await api.start()
            let downloads = recorder.reports(.download)
            #expect(downloads.count > 1)
            #expect(downloads.map(\.completedBytes) == downloads.map(\.completedBytes).sorted())
            #expect(downloads.last == TransferProgress(direction: .download, completedBytes: Int64(document.count), expectedBytes: Int64(document.count)))
        }
    }
}
