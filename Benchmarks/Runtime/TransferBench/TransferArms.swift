import APIAsyncHTTPClient
import APIRuntime
import AsyncHTTPClient
import BenchClient
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import Synchronization

/// One transfer of `size` bytes, checked.
typealias TransferArm = @Sendable () async throws -> Void

/// What one transfer took.
struct Transfer {
    let megabytesPerSecond: Double
    let memoryGrowthMiB: Double
}

struct WrongSize: Error, CustomStringConvertible {
    let description: String
}

/// Runs `arm` once, a transfer of `bytes`, sampling resident memory every 5 ms while it runs.
func measure(_ arm: TransferArm, bytes: Int64) async throws -> Transfer {
    let before = residentMiB()
    let peak = PeakSampler()
    let sampling = Task { await peak.run() }
    let start = ContinuousClock.now
    try await arm()
    let seconds = (ContinuousClock.now - start).seconds
    sampling.cancel()
    _ = await sampling.value
    return Transfer(megabytesPerSecond: Double(bytes) / seconds / 1e6, memoryGrowthMiB: max(0, peak.highest - before))
}

/// The highest resident size seen while `run` runs.
final class PeakSampler: Sendable {
    private let peak = Mutex(residentMiB())

    var highest: Double { peak.withLock { $0 } }

    func run() async {
        while !Task.isCancelled {
            let now = residentMiB()
            peak.withLock { $0 = max($0, now) }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Both sides of each comparison, configured alike: the manager on AsyncHTTPClient and on
/// URLSession, and each of those clients used directly.
final class TransferArms: Sendable {
    let overAsyncHTTPClient: APIManager
    let overURLSession: APIManager
    let http: HTTPClient
    let urlSession: URLSession
    let baseURL: String
    let size: Int64
    /// The file uploads send, and the folder downloads are written to.
    let source: URL
    let folder: URL

    init(baseURL: String, size: Int64) throws {
        self.baseURL = baseURL
        self.size = size
        var configuration = APIManager.Configuration()
        configuration.baseURLOverrides = ["https://api.example.com/v1": baseURL]
        configuration.httpTransport = .asyncHTTPClient
        overAsyncHTTPClient = APIManager(configuration: configuration)
        configuration.httpTransport = .urlSession
        overURLSession = APIManager(configuration: configuration)
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let sessionConfiguration = URLSessionConfiguration.default
        sessionConfiguration.timeoutIntervalForRequest = 600
        urlSession = URLSession(configuration: sessionConfiguration)

        folder = FileManager.default.temporaryDirectory.appendingPathComponent("transferbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        source = folder.appendingPathComponent("source.bin")
        guard FileManager.default.createFile(atPath: source.path, contents: nil) else { throw WrongSize(description: "cannot create \(source.path)") }
        let file = try FileHandle(forWritingTo: source)
        let block = Data(repeating: UInt8(ascii: "y"), count: 1 << 20)
        var written: Int64 = 0
        while written < size {
            let count = Int(min(Int64(block.count), size - written))
            try file.write(contentsOf: block.prefix(count))
            written += Int64(count)
        }
        try file.close()
    }

    func shutdown() async {
        await overAsyncHTTPClient.shutdown()
        await overURLSession.shutdown()
        try? await http.shutdown()
        urlSession.finishTasksAndInvalidate()
        try? FileManager.default.removeItem(at: folder)
    }

    var comparisons: [(String, String, TransferArm, TransferArm)] {
        [
            ("download to a file", "AsyncHTTPClient", managerDownload(overAsyncHTTPClient), rawAsyncHTTPClientDownload),
            ("download to a file", "URLSession", managerDownload(overURLSession), rawURLSessionDownload),
            ("upload from a file", "AsyncHTTPClient", managerUpload(overAsyncHTTPClient), rawAsyncHTTPClientUpload),
            ("upload from a file", "URLSession", managerUpload(overURLSession), rawURLSessionUpload),
        ]
    }

    private func destination() -> URL { folder.appendingPathComponent("download-\(UUID().uuidString)") }

    private func checkDownloaded(_ url: URL) throws {
        let count = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? -1
        try FileManager.default.removeItem(at: url)
        guard count == size else { throw WrongSize(description: "downloaded \(count) bytes of \(size)") }
    }

    private func checkReceipt(_ bytes: Int64) throws {
        guard bytes == size else { throw WrongSize(description: "the server received \(bytes) bytes of \(size)") }
    }

    // MARK: Downloads

    func managerDownload(_ manager: APIManager) -> TransferArm {
        { [self] in try checkDownloaded(try await DownloadBlobAPI(size: size, destination: destination()).using(manager).start()) }
    }

    var rawAsyncHTTPClientDownload: TransferArm {
        { [self] in
            let response = try await http.execute(HTTPClientRequest(url: "\(baseURL)/blob?size=\(size)"), timeout: .seconds(600))
            let url = destination()
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw WrongSize(description: "cannot create \(url.path)") }
            let file = try FileHandle(forWritingTo: url)
            for try await buffer in response.body {
                try file.write(contentsOf: buffer.readableBytesView)
            }
            try file.close()
            try checkDownloaded(url)
        }
    }

    var rawURLSessionDownload: TransferArm {
        { [self] in
            let (url, _) = try await urlSession.download(for: URLRequest(url: URL(string: "\(baseURL)/blob?size=\(size)")!))
            try checkDownloaded(url)
        }
    }

    // MARK: Uploads

    func managerUpload(_ manager: APIManager) -> TransferArm {
        { [self] in try checkReceipt(try await UploadBlobAPI(body: HTTPBody(contentsOf: source)).using(manager).start().bytes) }
    }

    var rawAsyncHTTPClientUpload: TransferArm {
        { [self] in
            var request = HTTPClientRequest(url: "\(baseURL)/blob")
            request.method = .PUT
            request.body = .stream(FileChunks(url: source), length: .known(size))
            let response = try await http.execute(request, timeout: .seconds(600))
            let reply = try await response.body.collect(upTo: 1 << 10)
            try checkReceipt(try JSONDecoder().decode(BlobReceipt.self, from: Data(reply.readableBytesView)).bytes)
        }
    }

    var rawURLSessionUpload: TransferArm {
        { [self] in
            var request = URLRequest(url: URL(string: "\(baseURL)/blob")!)
            request.httpMethod = "PUT"
            let (reply, _) = try await urlSession.upload(for: request, fromFile: source)
            try checkReceipt(try JSONDecoder().decode(BlobReceipt.self, from: reply).bytes)
        }
    }
}

/// A file's bytes in 256 KiB buffers, read as AsyncHTTPClient asks for them.
struct FileChunks: AsyncSequence, Sendable {
    let url: URL

    struct AsyncIterator: AsyncIteratorProtocol {
        let file: FileHandle?

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try file?.read(upToCount: 256 << 10), !chunk.isEmpty else { return nil }
            return ByteBuffer(bytes: chunk)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(file: try? FileHandle(forReadingFrom: url))
    }
}
