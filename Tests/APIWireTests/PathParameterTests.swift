import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import Testing
import WireTestSupport

/// Path parameters that would make the path name another resource.
@Suite("Path parameters on a loopback server")
struct PathParameterTests {
    @Test("An empty path parameter is an invalid request, and nothing is sent")
    func empty() async throws {
        let value = ""
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("path-parameter-\(UUID().uuidString)")
        try await withServer({ _ in .text("a document") }) { server, manager in
            let error = await expectAPIError { try await DownloadDocumentAPI(name: value, destination: destination).using(manager).start() }
            #expect(error?.reason == .invalidRequest(message: "path parameter 'name' is empty, which would name another resource"))
            #expect(server.requests.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
    }

    @Test("A value with dots or slashes in it is one segment, sent encoded")
    func encodedSegment() async throws {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("path-parameter-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        try await withServer({ _ in .text("a document") }) { server, manager in
            try await DownloadDocumentAPI(name: "../a.b/..", destination: destination).using(manager).start()
            #expect(server.requests.first?.path == "/v1/documents/..%2Fa.b%2F..")
        }
    }
}
