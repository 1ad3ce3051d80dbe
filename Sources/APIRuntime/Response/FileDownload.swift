import Foundation

extension ResponseDecoder where Response == URL {
    /// Writes the body to `destination` as it arrives, in constant memory, and returns
    /// `destination`. The bytes go to a temporary file beside it, moved into place once the body
    /// is whole (replacing any file there); a download that fails, is cancelled or ends short of
    /// its `Content-Length` removes the temporary file and leaves `destination` as it was.
    public static func download(to destination: URL) -> Self {
        .streaming { response, api in
            try await FileDownload(destination: destination, api: api).save(response.streamedBody ?? HTTPBody(response.body))
        }
    }
}

extension ResponseDecoder where Response == Data {
    /// The body's bytes as they are (its content type is in the reply's headers:
    /// `startWithMetadata()`).
    public static var bytes: Self {
        Self { body, _ in body }
    }
}

/// One download to a file: written beside its destination, then moved into place.
struct FileDownload {
    let destination: URL
    let api: String

    func save(_ body: HTTPBody) async throws(APIError) -> URL {
        let folder = destination.deletingLastPathComponent()
        let partial = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).download")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw APIError(api: api, reason: .invalidRequest(message: "cannot create a file in \(folder.path) to download into"))
        }
        do {
            let written = try await write(body, to: partial)
            if case .known(let expected) = body.length, written != expected {
                throw APIError(api: api, reason: .invalidResponse(message: "the body ended after \(written) of the \(expected) bytes its Content-Length announced"))
            }
            if FileManager.default.fileExists(atPath: destination.path) {
                try FileManager.default.removeItem(at: destination)
            }
            try FileManager.default.moveItem(at: partial, to: destination)
            return destination
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw mapped(error)
        }
    }

    /// Writes the body's chunks as they come and returns how many bytes there were.
    private func write(_ body: HTTPBody, to url: URL) async throws -> Int64 {
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        var written: Int64 = 0
        for try await chunk in body {
            try file.write(contentsOf: chunk)
            written += Int64(chunk.count)
        }
        try Task.checkCancellation()
        return written
    }

    private func mapped(_ error: any Error) -> APIError {
        if let error = error as? APIError { return error }
        if error is CancellationError || Task.isCancelled { return APIError(api: api, reason: .cancelled, underlying: error) }
        if error is CocoaError { return APIError(api: api, reason: .invalidRequest(message: "cannot write the download to \(destination.path): \(error.localizedDescription)"), underlying: error) }
        return APIError(api: api, reason: .transport(message: "the body broke off: \(error)"), underlying: error)
    }
}
