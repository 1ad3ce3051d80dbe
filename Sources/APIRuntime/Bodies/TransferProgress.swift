import Foundation

/// How far a call's upload or download has got: what a progress bar shows.
///
/// ```swift
/// let upload = UploadAvatarAPI(id: 7, photo: UploadFile(contentsOf: photoURL))
/// upload.options.progress = { progress in
///     Task { @MainActor in bar.progress = progress.fractionCompleted ?? 0 }
/// }
/// ```
public struct TransferProgress: Sendable, Hashable {
    /// Which body is moving.
    public enum Direction: Sendable, Hashable {
        /// The request's body going to the server.
        case upload
        /// The reply's body coming from it.
        case download
    }

    /// Whether this is the upload or the download.
    public var direction: Direction
    /// Bytes sent or received so far.
    public var completedBytes: Int64
    /// The body's whole length, when it is known (a `Content-Length`, a file's size).
    public var expectedBytes: Int64?

    /// Progress of `direction`: `completedBytes` of `expectedBytes`, when the whole length is known.
    public init(direction: Direction, completedBytes: Int64, expectedBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// `completedBytes / expectedBytes`, from 0 to 1; nil when the length is not known.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return expectedBytes == 0 ? 1 : nil }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }
}

/// Where the call a task is running reports its progress. The manager sets it for calls whose
/// API has a progress handler (`options.progress`); an HTTP transport reports the bytes of a request body as they
/// go out (`uploaded`), and the manager the reply's as they are read.
public struct ProgressReporter: Sendable {
    /// The reporter of the call the current task runs, if its API wants progress.
    @TaskLocal public static var current: ProgressReporter?

    private let handler: @Sendable (TransferProgress) -> Void

    /// A reporter that hands each report to `handler`, on the task that moves the bytes.
    public init(_ handler: @escaping @Sendable (TransferProgress) -> Void) {
        self.handler = handler
    }

    /// Reports that `completedBytes` of the request's body have gone out.
    public func uploaded(_ completedBytes: Int64, of expectedBytes: Int64?) {
        handler(TransferProgress(direction: .upload, completedBytes: completedBytes, expectedBytes: expectedBytes))
    }

    /// Reports that `completedBytes` of the reply's body have arrived.
    public func downloaded(_ completedBytes: Int64, of expectedBytes: Int64?) {
        handler(TransferProgress(direction: .download, completedBytes: completedBytes, expectedBytes: expectedBytes))
    }

    func report(_ progress: TransferProgress) {
        handler(progress)
    }
}

extension HTTPBody {
    /// The body, telling `reporter` how many bytes its reader has taken, as a download's progress.
    func reportingDownload(to reporter: ProgressReporter) -> HTTPBody {
        reporting(to: reporter, expected: length) { reporter, count, expected in reporter.downloaded(count, of: expected) }
    }

    /// The body, telling `reporter` how many bytes its reader has taken, as an upload's progress:
    /// for transports that send a body as they read it.
    public func reportingUpload(to reporter: ProgressReporter) -> HTTPBody {
        reporting(to: reporter, expected: length) { reporter, count, expected in reporter.uploaded(count, of: expected) }
    }

    private func reporting(
        to reporter: ProgressReporter, expected length: Length,
        _ report: @escaping @Sendable (ProgressReporter, Int64, Int64?) -> Void
    ) -> HTTPBody {
        let expected: Int64? = if case .known(let count) = length { count } else { nil }
        let counted = CountedChunks(base: self) { total in report(reporter, total, expected) }
        return HTTPBody(counted, length: length, iterationBehavior: iterationBehavior)
    }
}

/// A body's chunks, with a running total reported after each; chunks larger than `sliceSize`
/// (a body given whole) are handed on in slices, so that progress moves as they go out.
private struct CountedChunks: AsyncSequence, Sendable {
    static let sliceSize = 256 << 10

    let base: HTTPBody
    let report: @Sendable (Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let report: @Sendable (Int64) -> Void
        var pending = Data()
        var total: Int64 = 0

        mutating func next() async throws -> Data? {
            if pending.isEmpty {
                guard let chunk = try await base.next() else { return nil }
                pending = chunk
            }
            let slice = pending.prefix(CountedChunks.sliceSize)
            pending = pending.dropFirst(slice.count)
            total += Int64(slice.count)
            report(total)
            return Data(slice)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), report: report)
    }
}
