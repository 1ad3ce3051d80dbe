import Foundation
import Hummingbird
import Logging
import NIOCore

/// The server of TransferBench, in a child process: `GET /blob?size=N` answers N bytes with their
/// `Content-Length`, made as the connection can take them; `PUT /blob` reads the body, counting
/// it, and answers `{"bytes": N}`.
enum BlobServer {
    static let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 256 << 10)

    static func serve() async throws {
        let router = Router()
        router.get("/blob") { request, _ -> Response in
            let size = request.uri.queryParameters.get("size", as: Int.self) ?? 0
            return Response(status: .ok, headers: [.contentLength: "\(size)", .contentType: "application/octet-stream"], body: .init(asyncSequence: Blob(size: size)))
        }
        router.put("/blob") { request, _ -> Response in
            var count = 0
            for try await part in request.body { count += part.readableBytes }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"bytes": \#(count)}"#)))
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                // Unbuffered: the parent waits for this line.
                FileHandle.standardOutput.write(Data("http=\(channel.localAddress?.port ?? 0)\n".utf8))
            },
            logger: quietLogger
        )
        let running = Task { try await app.run() }
        // The parent closes stdin when it is done; the process ends with it.
        while readLine() != nil {}
        running.cancel()
    }
}

/// The server's own log would interleave with the table; it reports only what is critical.
private let quietLogger: Logger = {
    var logger = Logger(label: "blob-server")
    logger.logLevel = .critical
    return logger
}()

/// `size` bytes in 256 KiB slices of one buffer, made as they are asked for.
struct Blob: AsyncSequence, Sendable {
    let size: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var left: Int

        mutating func next() async -> ByteBuffer? {
            guard left > 0 else { return nil }
            let count = Swift.min(left, BlobServer.chunk.readableBytes)
            left -= count
            return BlobServer.chunk.getSlice(at: 0, length: count)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(left: size)
    }
}
