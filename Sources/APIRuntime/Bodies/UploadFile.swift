import Foundation

/// A file a request sends: a part of a `multipart/form-data` body, with the file name and
/// content type the server sees.
///
/// ```swift
/// let avatar = UploadFile(contentsOf: photoURL)                        // read from disk as it is sent
/// let note = UploadFile(Data("hi".utf8), fileName: "note.txt", contentType: "text/plain")
/// ```
public struct UploadFile: Sendable, Hashable {
    /// Where the file's bytes come from.
    public enum Contents: Sendable, Hashable {
        /// A file on disk, read in chunks as the request is sent, never whole in memory.
        case file(URL)
        /// Bytes in memory.
        case data(Data)
    }

    /// The file's bytes, on disk or in memory.
    public var contents: Contents
    /// The name the server sees in the part's `Content-Disposition`.
    public var fileName: String
    /// The part's `Content-Type`.
    public var contentType: String

    /// The file at `url`; its name is the URL's last component and its content type is guessed
    /// from its extension, unless given.
    public init(contentsOf url: URL, fileName: String? = nil, contentType: String? = nil) {
        self.contents = .file(url)
        self.fileName = fileName ?? url.lastPathComponent
        self.contentType = contentType ?? Self.contentType(forExtension: url.pathExtension)
    }

    /// Bytes already in memory, sent as a file named `fileName`.
    public init(_ data: Data, fileName: String, contentType: String = "application/octet-stream") {
        self.contents = .data(data)
        self.fileName = fileName
        self.contentType = contentType
    }

    /// The media type of common file extensions; `application/octet-stream` for the others.
    public static func contentType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "heic": "image/heic"
        case "svg": "image/svg+xml"
        case "pdf": "application/pdf"
        case "json": "application/json"
        case "zip": "application/zip"
        case "txt": "text/plain"
        case "csv": "text/csv"
        case "html", "htm": "text/html"
        case "mp4": "video/mp4"
        case "mov": "video/quicktime"
        case "mp3": "audio/mpeg"
        case "m4a": "audio/mp4"
        default: "application/octet-stream"
        }
    }
}
