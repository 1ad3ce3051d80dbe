import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields, data parts and file parts in order.
/// Without file parts it is encoded whole; with them it streams, each file read from disk as it
/// is sent, with its total length known up front so that it goes out with a `Content-Length`.
struct MultipartForm: Sendable {
    private enum Segment: Sendable {
        case bytes(Data)
        case file(URL)
    }

    let boundary = "apiruntime-" + UUID().uuidString
    private var segments: [Segment] = []
    private var length: Int64 = 0

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func append(name: String, text: String) {
        append(head: Self.disposition(name: name, fileName: nil), Data(text.utf8))
    }

    mutating func append(name: String, data: Data, contentType: String) {
        append(head: Self.disposition(name: name, fileName: nil) + "\r\nContent-Type: \(contentType)", data)
    }

    /// Appends a file part; a file on disk is measured now and read when the body is sent.
    mutating func append(name: String, file: UploadFile) throws {
        let head = Self.disposition(name: name, fileName: file.fileName) + "\r\nContent-Type: \(file.contentType)"
        switch file.contents {
        case .data(let data):
            append(head: head, data)
        case .file(let url):
            // Measured through symbolic links: what is read is the file a link points at.
            let attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
            guard let size = (attributes[.size] as? NSNumber)?.int64Value, attributes[.type] as? FileAttributeType != .typeDirectory else {
                throw CocoaError(.fileReadInvalidFileName, userInfo: [NSFilePathErrorKey: url.path])
            }
            appendBytes(opening(head))
            segments.append(.file(url))
            length += size
            appendBytes(Data("\r\n".utf8))
        }
    }

    /// A part's boundary line and headers, up to its content.
    private func opening(_ head: String) -> Data {
        Data(("--\(boundary)\r\n" + head + "\r\n\r\n").utf8)
    }

    /// The whole form as a body, closed by the final boundary.
    func body() -> HTTPBody {
        var form = self
        form.appendBytes(Data("--\(boundary)--\r\n".utf8))
        if form.segments.count == 1, case .bytes(let data) = form.segments[0] { return HTTPBody(data) }
        return HTTPBody(Chunks(segments: form.segments), length: .known(form.length), iterationBehavior: .multiple)
    }

    private mutating func append(head: String, _ content: Data) {
        var part = opening(head)
        part.append(content)
        part.append(contentsOf: "\r\n".utf8)
        appendBytes(part)
    }

    private mutating func appendBytes(_ data: Data) {
        length += Int64(data.count)
        if case .bytes(let previous)? = segments.last {
            segments[segments.count - 1] = .bytes(previous + data)
        } else {
            segments.append(.bytes(data))
        }
    }

    /// `Content-Disposition: form-data; name="…"; filename="…"`, with `"`, CR and LF written as
    /// `%22`, `%0D` and `%0A`, as browsers write them (the WHATWG form-data encoding), and NUL as
    /// `%00`.
    static func disposition(name: String, fileName: String?) -> String {
        var text = "Content-Disposition: form-data; name=\"\(escaped(name))\""
        if let fileName { text += "; filename=\"\(escaped(fileName))\"" }
        return text
    }

    private static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
            .replacingOccurrences(of: "\0", with: "%00")
    }

    /// The form's bytes, each file read in chunks as the reader reaches it.
    private struct Chunks: AsyncSequence, Sendable {
        let segments: [Segment]

        struct AsyncIterator: AsyncIteratorProtocol {
            var remaining: ArraySlice<Segment>
            var file: HTTPBody.Iterator?

            mutating func next() async throws -> Data? {
                while true {
                    if var current = file {
                        let chunk = try await current.next()
                        file = current
                        if let chunk { return chunk }
                        file = nil
                    }
                    guard let segment = remaining.popFirst() else { return nil }
                    switch segment {
                    case .bytes(let data): return data
                    case .file(let url): file = try HTTPBody(contentsOf: url).makeAsyncIterator()
                    }
                }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(remaining: segments[...], file: nil)
        }
    }
}
