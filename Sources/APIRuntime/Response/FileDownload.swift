import Foundation

extension ResponseDecoder where Response == URL {
    /// Writes the body to `destination` as it arrives, in constant memory, and returns
    /// `destination`. The bytes go to a temporary file beside it, moved into place once the body
    /// is whole (replacing any file there); a download that fails, is cancelled or ends short of
    /// its `Content-Length` removes the temporary file and leaves `destination` as it was.
    public static func download(to destination: URL) -> Self {
        .streaming { response, api in
            try await FileDownload(destination: destination, api: api, limit: response.limits.maxDownloadBytes)
                .save(response.streamedBody ?? HTTPBody(response.body))
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

/// One download to a file: written beside its destination, then renamed over it, so that the
/// destination is the old file or the whole new one, never a part of either.
struct FileDownload {
    let destination: URL
    let api: String
    /// The most the download may write.
    let limit: Int64

    func save(_ body: HTTPBody) async throws(APIError) -> URL {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), isFolder.boolValue {
            throw APIError(api: api, reason: .invalidRequest(message: "the download's destination \(destination.lastPathComponent) is a folder"))
        }
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).download")
        do {
            let written = try await body.write(to: partial, upTo: limit)
            if case .known(let expected) = body.length, written != expected {
                throw APIError(api: api, reason: .invalidResponse(message: "the body ended after \(written) of the \(expected) bytes its Content-Length announced"))
            }
            // rename(2) replaces a file in one step; FileManager's move refuses an existing one.
            guard rename(partial.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
            }
            return destination
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw APIError.wrapping(error, api: api) { error in
                switch error {
                case let tooLarge as HTTPBody.TooLarge:
                    APIError(api: api, reason: .invalidResponse(message: "the download is larger than \(tooLarge.limit) bytes"), underlying: error)
                case is CocoaError:
                    APIError(api: api, reason: .invalidRequest(message: "cannot write the download to \(destination.path): \(error.localizedDescription)"), underlying: error)
                default:
                    APIError(api: api, reason: .transport(message: "the body broke off: \(error)"), underlying: error)
                }
            }
        }
    }
}
