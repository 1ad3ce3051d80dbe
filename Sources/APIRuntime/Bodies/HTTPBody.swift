import Foundation

/// The bytes of a request or response body, as chunks that arrive over time: the shape of
/// AsyncHTTPClient's bodies and swift-openapi-runtime's `HTTPBody`.
///
/// ```swift
/// for try await chunk in body { file.write(chunk) }
/// let whole = try await body.collect(upTo: 1 << 20)
/// ```
///
/// A body made from `Data` holds it whole and can be read any number of times, as can one read
/// from a file, which is read in chunks each time and never held whole. A body made from a
/// sequence of chunks is read once, as it arrives, unless it says that its sequence can be
/// iterated again: the manager retries a call only when its body can be sent again.
public struct HTTPBody: AsyncSequence, Sendable {
    /// A chunk of the body's bytes.
    public typealias Element = Data
    /// What reading the body throws: the error of the file or the stream it comes from.
    public typealias Failure = any Error

    /// How many bytes the body has in all, when that is known before it has been read.
    public enum Length: Sendable, Hashable {
        /// The body has this many bytes.
        case known(Int64)
        /// The body's length is known only once it has been read (a stream).
        case unknown
    }

    private enum Storage: Sendable {
        case whole(Data)
        case file(URL)
        case chunks(@Sendable () -> Iterator)
    }

    /// Whether the body can be read more than once.
    public enum IterationBehavior: Sendable, Hashable {
        /// The body can be read once: a stream, consumed as it is read.
        case single
        /// The body can be read again: bytes in memory, a file, or a sequence that restarts.
        case multiple
    }

    /// How many bytes the body has, when that is known before it is read.
    public let length: Length
    /// Whether the body can be read more than once, and so sent again by a retry.
    public let iterationBehavior: IterationBehavior
    private let storage: Storage

    /// A body held whole in memory.
    public init(_ data: Data) {
        self.length = .known(Int64(data.count))
        self.iterationBehavior = .multiple
        self.storage = .whole(data)
    }

    /// A body read from the file at `fileURL` in chunks as it is sent; its length is the file's
    /// size now (the size of the file a symbolic link points at, for a link).
    public init(contentsOf fileURL: URL) throws {
        let size = try FileManager.default.attributesOfItem(atPath: fileURL.resolvingSymlinksInPath().path)[.size] as? NSNumber
        self.length = size.map { .known($0.int64Value) } ?? .unknown
        self.iterationBehavior = .multiple
        self.storage = .file(fileURL)
    }

    /// A body read from `chunks` as they come; `length` is what a `Content-Length` header says.
    /// Say `.multiple` only when each iteration of `chunks` yields the same bytes from the start.
    public init<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, length: Length = .unknown, iterationBehavior: IterationBehavior = .single
    ) where Chunks.Element == Data {
        self.length = length
        self.iterationBehavior = iterationBehavior
        self.storage = .chunks {
            var base = chunks.makeAsyncIterator()
            return Iterator { try await base.next() }
        }
    }

    /// This body, with `end` run once: when it has been read to its end or failed, or else when
    /// nothing holds the body or an iterator of it any more.
    func onEnd(_ end: EndAction) -> HTTPBody {
        HTTPBody(length: length, iterationBehavior: iterationBehavior, storage: .chunks {
            var base = makeAsyncIterator()
            return Iterator {
                do {
                    if let chunk = try await base.next() { return chunk }
                    end.run()
                    return nil
                } catch {
                    end.run()
                    throw error
                }
            }
        })
    }

    private init(length: Length, iterationBehavior: IterationBehavior, storage: Storage) {
        self.length = length
        self.iterationBehavior = iterationBehavior
        self.storage = storage
    }

    /// The whole bytes when the body was made from `Data`; nil when it streams.
    public var data: Data? {
        if case .whole(let data) = storage { return data }
        return nil
    }

    /// The file the body is read from, when it was made from one.
    public var fileURL: URL? {
        if case .file(let url) = storage { return url }
        return nil
    }

    /// How many bytes a file body reads at a time.
    static let fileChunkSize = 256 << 10

    /// An iterator over the body's chunks, from its start when the body can be read again.
    public func makeAsyncIterator() -> Iterator {
        switch storage {
        case .whole(let data):
            var done = data.isEmpty
            return Iterator {
                defer { done = true }
                return done ? nil : data
            }
        case .file(let url):
            var file: FileHandle?
            var done = false
            return Iterator {
                guard !done else { return nil }
                if file == nil { file = try FileHandle(forReadingFrom: url) }
                if let chunk = try file?.read(upToCount: Self.fileChunkSize), !chunk.isEmpty { return chunk }
                done = true
                try file?.close()
                return nil
            }
        case .chunks(let makeIterator):
            return makeIterator()
        }
    }

    /// Reads a body's chunks one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        private let nextChunk: () async throws -> Data?

        init(_ nextChunk: @escaping () async throws -> Data?) {
            self.nextChunk = nextChunk
        }

        /// The next chunk, or nil when the body has ended.
        public mutating func next() async throws -> Data? {
            try await nextChunk()
        }
    }

    /// Reads the whole body, failing with `TooLarge` as soon as it passes `limit` bytes (at once
    /// when its declared length already does).
    public func collect(upTo limit: Int) async throws -> Data {
        if case .known(let count) = length, count > limit { throw TooLarge(limit: limit) }
        if let data { return data }
        var collected = Data()
        for try await chunk in self {
            guard collected.count + chunk.count <= limit else { throw TooLarge(limit: limit) }
            collected.append(chunk)
        }
        return collected
    }

    /// A body longer than a reader's limit.
    public struct TooLarge: Error, CustomStringConvertible {
        /// The limit the body passed, in bytes.
        public var limit: Int
        /// `the body is larger than 1048576 bytes`.
        public var description: String { "the body is larger than \(limit) bytes" }
    }
}

extension HTTPBody: ExpressibleByStringLiteral {
    /// A body of the text's UTF-8 bytes, held whole.
    public init(stringLiteral text: String) {
        self.init(Data(text.utf8))
    }
}
