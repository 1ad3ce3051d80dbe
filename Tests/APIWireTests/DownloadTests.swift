import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
import WireTestSupport

/// Downloads under a careless caller or a hostile server: a folder as the destination, a gzipped
/// reply, one larger than the bound.
@Suite("Downloads when something is off, on a loopback server")
struct DownloadTests {
    @Test("A destination that is a folder is an invalid request, and the folder and its files stay")
    func folderDestination() async throws {
        let folder = try ResponseBodyTests.makeFolder()
        let destination = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: destination.appendingPathComponent("a.jpg"))
        try await withServer({ _ in .text("new") }) { server, manager in
            let error = await expectAPIError { try await DownloadDocumentAPI(name: "photos", destination: destination).using(manager).start() }
            #expect(error?.reason == .invalidRequest(message: "the download's destination photos is a folder"))
            let kept = try Data(contentsOf: destination.appendingPathComponent("a.jpg"))
            #expect(kept == Data("keep".utf8))
            let left = try ResponseBodyTests.contents(of: folder)
            #expect(left == ["photos"])
        }
    }

    @Test("A download the server gzips arrives decoded and whole, though its Content-Length counts the gzipped bytes")
    func gzipped() async throws {
        let document = RequestBodyTests.randomBytes(300 << 10)
        let gzipped = Gzip.stored(document)
        let folder = try ResponseBodyTests.makeFolder()
        let destination = folder.appendingPathComponent("report.pdf")
        try await withServer({ _ in
            Response(
                status: .ok, headers: [.contentType: "application/pdf", .contentEncoding: "gzip"],
                body: .init(byteBuffer: ByteBuffer(bytes: gzipped))
            )
        }) { server, manager in
            let saved = try await DownloadDocumentAPI(name: "report.pdf", destination: destination).using(manager).start()
            let written = try Data(contentsOf: saved)
            #expect(written == document)
            let left = try ResponseBodyTests.contents(of: folder)
            #expect(left == ["report.pdf"])
        }
    }

    @Test("A download larger than maxDownloadBytes ends with .invalidResponse and leaves nothing, not even the old file's replacement")
    func bounded() async throws {
        let folder = try ResponseBodyTests.makeFolder()
        let destination = folder.appendingPathComponent("big.bin")
        try Data("old".utf8).write(to: destination)
        try await withServer(configure: { $0.maxDownloadBytes = 1 << 20 }, { _ in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 7, count: 2 << 20)))
        }) { server, manager in
            let error = await expectAPIError { try await DownloadDocumentAPI(name: "big.bin", destination: destination).using(manager).start() }
            #expect(error?.reason == .invalidResponse(message: "the download is larger than 1048576 bytes"))
            let old = try Data(contentsOf: destination)
            #expect(old == Data("old".utf8))
            let left = try ResponseBodyTests.contents(of: folder)
            #expect(left == ["big.bin"])
        }
    }
}

/// gzip made by hand, with stored (uncompressed) deflate blocks: no compression library needed,
/// and a valid stream every inflater reads.
enum Gzip {
    static func stored(_ data: Data) -> Data {
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out.append(last)
            out.append(contentsOf: [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)])
            out.append(data[data.startIndex + offset ..< data.startIndex + offset + count])
            offset += count
        } while offset < data.count
        out.append(contentsOf: littleEndian(crc32(data)))
        out.append(contentsOf: littleEndian(UInt32(truncatingIfNeeded: data.count)))
        return out
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }

    /// CRC-32 a byte at a time from a table: a bit at a time keeps a thread of the test process's
    /// pool busy for seconds in a debug build.
    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        data.withUnsafeBytes { bytes in
            for byte in bytes { crc = (crc >> 8) ^ crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] }
        }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var entry = UInt32(index)
        for _ in 0..<8 { entry = (entry >> 1) ^ (entry & 1 == 1 ? 0xEDB8_8320 : 0) }
        return entry
    }
}
