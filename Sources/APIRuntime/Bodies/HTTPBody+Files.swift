import Foundation

extension HTTPBody {
    /// Writes the body's bytes to a new file at `url`, chunk by chunk as they are read, and returns
    /// how many there were. A write that fails or is cancelled removes what it wrote.
    @discardableResult
    public func write(to url: URL) async throws -> Int64 {
        try await write(to: url, upTo: .max)
    }

    /// `write(to:)`, failing with `TooLarge` (and removing the file) as soon as the body passes
    /// `limit` bytes.
    func write(to url: URL, upTo limit: Int64) async throws -> Int64 {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        do {
            let file = try FileHandle(forWritingTo: url)
            defer { try? file.close() }
            var written: Int64 = 0
            for try await chunk in self {
                // Chunks read from a file, or made at once, never suspend: the task yields here, so
                // that its cancelling (a deadline, `cancel()`) can reach it, and stops here when it
                // is cancelled, not after the whole body.
                await Task.yield()
                try Task.checkCancellation()
                guard written + Int64(chunk.count) <= limit else { throw TooLarge(limit: Int(clamping: limit)) }
                try file.write(contentsOf: chunk)
                written += Int64(chunk.count)
            }
            try Task.checkCancellation()
            return written
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// Writes the body to a new file in `directory` and returns its URL; the caller removes it.
    func writeToTemporaryFile(in directory: URL) async throws -> URL {
        let url = directory.appendingPathComponent("apiruntime-\(UUID().uuidString).body")
        try await write(to: url)
        return url
    }
}
