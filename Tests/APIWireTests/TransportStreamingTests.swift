import APIAsyncHTTPClient
import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// Both HTTP transports on the wire, below the manager: bodies as byte streams both ways.
@Suite("HTTP transports stream bodies on a loopback server")
struct TransportStreamingTests {
    static func transport(_ name: String) -> any HTTPTransport {
        let settings = SessionSettings(maxConnectionsPerHost: 2)
        return name == "URLSession" ? URLSessionTransport(settings: settings) : try! AsyncHTTPClientTransport(host: "127.0.0.1", settings: settings)
    }

    @Test("URLSession: requests cancelled at any moment around their start leave none in flight")
    func cancelledAroundStart() async throws {
        let server = try await LoopbackServer.start(recording: false) { _ in .json("1") }
        let transport = URLSessionTransport(settings: SessionSettings(maxConnectionsPerHost: 4))
        let head = HTTPRequest(method: .get, url: URL(string: server.baseURL + "/v1/users/count")!)
        for round in 0..<600 {
            let call = Task { try await transport.send(head, body: nil) }
            // At once, after the task had a turn, or some microseconds later.
            switch round % 3 {
            case 0: break
            case 1: await Task.yield()
            default: try await Task.sleep(for: .microseconds(round % 150))
            }
            call.cancel()
            if let (_, body) = try? await call.value { _ = try? await body.collect(upTo: 1024) }
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while transport.requestsInFlight > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(transport.requestsInFlight == 0)
        await transport.shutdown()
    }

    /// FoundationNetworking cannot pause a download (see `URLSessionTransport`), so on Linux only
    /// AsyncHTTPClient is held to this.
    static let transportsThatPause: [String] = {
        #if canImport(Darwin)
        ["URLSession", "AsyncHTTPClient"]
        #else
        ["AsyncHTTPClient"]
        #endif
    }()

    @Test("A reader that stops reading stops the download; reading on brings every byte", arguments: transportsThatPause)
    func slowReader(transportName: String) async throws {
        // Large enough that a client without backpressure takes far more than half of it in the
        // second the reader stops, even on a loaded machine; a paused one takes a few megabytes.
        let total = 256 << 20
        let chunk = 64 << 10
        let produced = NIOLockedValueBox(0)
        let server = try await LoopbackServer.start { _ in
            // Each chunk is made when the server can write it, so `produced` is what left it.
            let chunks = AsyncStream<ByteBuffer> {
                let made = produced.withLockedValue { made in
                    defer { made += chunk }
                    return made
                }
                return made < total ? ByteBuffer(repeating: UInt8(ascii: "a"), count: chunk) : nil
            }
            return Response(status: .ok, headers: [.contentLength: "\(total)"], body: .init(asyncSequence: chunks))
        }
        let transport = Self.transport(transportName)
        let (response, body) = try await transport.send(HTTPRequest(method: .get, url: URL(string: server.baseURL + "/download")!), body: nil)
        #expect(response.status == .ok)
        #expect(body.length == .known(Int64(total)))

        var chunks = body.makeAsyncIterator()
        var received = try await chunks.next()?.count ?? 0
        try await Task.sleep(for: .seconds(1))
        // Socket buffers on both sides and the transport's own window hold some; not 64 MiB.
        let producedWhileStopped = produced.withLockedValue { $0 }
        #expect(producedWhileStopped < total / 2, "the server wrote \(producedWhileStopped >> 20) MiB to a reader that read 64 KiB")

        while let next = try await chunks.next() { received += next.count }
        #expect(received == total)
        await transport.shutdown()
    }

    @Test("A request body made of chunks arrives whole", arguments: ["URLSession", "AsyncHTTPClient"])
    func chunkedUpload(transportName: String) async throws {
        let server = try await LoopbackServer.start { request in
            .json(#"{"bytes": \#(request.body.count), "last": \#(request.body.last ?? 0)}"#)
        }
        let parts = (0..<64).map { Data(repeating: UInt8($0), count: 16 << 10) }
        let chunks = AsyncStream<Data> { continuation in
            for part in parts { continuation.yield(part) }
            continuation.finish()
        }
        // URLSession writes a streamed body to a file first; a folder of this test's own shows
        // that the file is removed.
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        let settings = SessionSettings(maxConnectionsPerHost: 2)
        let transport: any HTTPTransport = transportName == "URLSession"
            ? URLSessionTransport(settings: settings, temporaryDirectory: spool) : try! AsyncHTTPClientTransport(host: "127.0.0.1", settings: settings)
        var head = HTTPRequest(method: .post, url: URL(string: server.baseURL + "/upload")!)
        head.headerFields[.contentType] = "application/octet-stream"
        let (response, body) = try await transport.send(head, body: HTTPBody(chunks, length: .known(64 << 14)))
        #expect(response.status == .ok)
        let reply = try await body.collect(upTo: 1 << 10)
        #expect(String(decoding: reply, as: UTF8.self) == #"{"bytes": 1048576, "last": 63}"#)
        #expect(server.requests.first?.body == parts.reduce(Data(), +))
        let left = try FileManager.default.contentsOfDirectory(atPath: spool.path)
        #expect(left.isEmpty, "URLSession's temporary copy of the body is removed")
        await transport.shutdown()
    }

    @Test("A body read from a file arrives whole, with its length", arguments: ["URLSession", "AsyncHTTPClient"])
    func fileUpload(transportName: String) async throws {
        let server = try await LoopbackServer.start { request in .json(#"{"bytes": \#(request.body.count)}"#) }
        let contents = RequestBodyTests.randomBytes(3 << 20)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        try contents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let body = try HTTPBody(contentsOf: file)
        #expect(body.length == .known(Int64(contents.count)))
        let transport = Self.transport(transportName)
        let (response, _) = try await transport.send(HTTPRequest(method: .put, url: URL(string: server.baseURL + "/files/a")!), body: body)
        #expect(response.status == .ok)
        let received = try #require(server.requests.first)
        #expect(received.body == contents)
        #expect(received.headers[.contentLength] == "\(contents.count)")
        #expect(FileManager.default.fileExists(atPath: file.path), "the caller's file is left in place")
        await transport.shutdown()
    }
}
