import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import MultipartKit
import NIOCore
import Testing
import WireTestSupport

/// Request bodies the manifest declares, sent by the generated client and read back by a real
/// server's parsers: a whole JSON value, raw bytes, and multipart forms read by Vapor's parser.
@Suite("Request bodies on a loopback server")
struct RequestBodyTests {
    /// A multipart part as Vapor's parser saw it.
    struct ParsedPart: Equatable {
        var headers: [String: String]
        var body: Data
        var disposition: String { headers["content-disposition"] ?? "" }
    }

    static func parseMultipart(_ request: RecordedRequest) throws -> [ParsedPart] {
        let contentType = try #require(request.headers[.contentType])
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        #expect(contentType.hasPrefix("multipart/form-data; "))
        let parser = MultipartParser(boundary: boundary)
        var parts: [ParsedPart] = []
        var current = ParsedPart(headers: [:], body: Data())
        parser.onHeader = { name, value in current.headers[name.lowercased()] = value }
        parser.onBody = { buffer in current.body.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            parts.append(current)
            current = ParsedPart(headers: [:], body: Data())
        }
        try parser.execute(ByteBuffer(bytes: request.body))
        return parts
    }

    static func temporaryFile(named name: String, contents: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bodies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    /// Bytes with no pattern a framing bug could hide in: xorshift64 from a random seed, eight
    /// bytes a step (cheap under ThreadSanitizer, unlike the system generator).
    static func randomBytes(_ count: Int) -> Data {
        var state = UInt64.random(in: 1 ... .max)
        var words = [UInt64](repeating: 0, count: count / 8 + 1)
        for index in words.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            words[index] = state
        }
        return words.withUnsafeBytes { Data($0.prefix(count)) }
    }

    @Test("Every part of a multipart form arrives as sent: text, lists, JSON, bytes, files from disk and memory")
    func multipartForm() async throws {
        let log = Data(0...255)
        let onDisk = Self.randomBytes(300_001)  // more than one of the file reader's chunks, not a whole number of them
        let file = try Self.temporaryFile(named: "crash \"dump\".bin", contents: onDisk)
        let note = UploadFile(Data("héllo\r\n--not a boundary".utf8), fileName: "note.txt", contentType: "text/plain; charset=utf-8")
        try await withServer({ _ in Response(status: .noContent) }) { server, manager in
            _ = try await SubmitReportAPI(
                summary: "Q3 – résumé", labels: ["ui", "crash"], details: ReportDetails(title: "Crash", severity: 2),
                log: log, attachments: [UploadFile(contentsOf: file), note], requestID: "r-1"
            ).using(manager).start()

            let request = try #require(server.requests.first)
            #expect(request.headers[.contentLength] == "\(request.body.count)", "a form with a file on disk still says its length")
            #expect(request.headers[HTTPField.Name("X-Request-ID")!] == "r-1")
            let parts = try Self.parseMultipart(request)
            #expect(parts.map(\.disposition) == [
                #"form-data; name="summary""#,
                #"form-data; name="labels""#,
                #"form-data; name="labels""#,
                #"form-data; name="details""#,
                #"form-data; name="log""#,
                #"form-data; name="attachment"; filename="crash %22dump%22.bin""#,
                #"form-data; name="attachment"; filename="note.txt""#,
            ])
            #expect(parts.map { String(decoding: $0.body, as: UTF8.self) }.prefix(3) == ["Q3 – résumé", "ui", "crash"])
            #expect(parts[3].headers["content-type"] == "application/json")
            #expect(try JSONDecoder().decode(ReportDetails.self, from: parts[3].body) == ReportDetails(title: "Crash", severity: 2))
            #expect(parts[4].headers["content-type"] == "application/octet-stream")
            #expect(parts[4].body == log)
            #expect(parts[5].headers["content-type"] == "application/octet-stream")
            #expect(parts[5].body == onDisk)
            #expect(parts[6].headers["content-type"] == "text/plain; charset=utf-8")
            #expect(parts[6].body == Data("héllo\r\n--not a boundary".utf8))
        }
    }

    @Test("A file part takes its name from the file and its content type from the extension")
    func avatarUpload() async throws {
        let photo = try Self.temporaryFile(named: "me.JPG", contents: Self.randomBytes(100_000))
        try await withServer({ _ in .json(Samples.userJSON) }) { server, manager in
            let user = try await UploadAvatarAPI(id: 7, photo: UploadFile(contentsOf: photo)).using(manager).start()
            #expect(user.id == 7)
            let request = try #require(server.requests.first)
            #expect(request.target == "/v1/users/7/avatar")
            let parts = try Self.parseMultipart(request)
            #expect(parts.count == 1, "a nil caption sends no part")
            #expect(parts.first?.disposition == #"form-data; name="photo"; filename="me.JPG""#)
            #expect(parts.first?.headers["content-type"] == "image/jpeg")
            #expect(parts.first?.body == (try Data(contentsOf: photo)))
        }
    }

    @Test("A whole-body value is the JSON body, other parameters stay in the URL")
    func wholeJSONBody() async throws {
        // Whole seconds: dates are sent without fractions.
        let json = Samples.userJSON.replacingOccurrences(of: ".250Z", with: "Z")
        let user = try JSONDecoder.example.decode(User.self, from: Data(json.utf8))
        try await withServer({ request in .json(request.bodyText) }) { server, manager in
            let replaced = try await ReplaceUserAPI(id: 7, body: user).using(manager).start()
            #expect(replaced == user)
            let request = try #require(server.requests.first)
            #expect(request.method == .put)
            #expect(request.target == "/v1/users/7")
            #expect(request.headers[.contentType] == "application/json")
            #expect(try JSONDecoder.example.decode(User.self, from: request.body) == user)
        }
    }

    @Test("Raw bytes go as they are, with the declared content type, from memory or from a file")
    func rawBytes() async throws {
        let contents = Self.randomBytes(1 << 20)
        let file = try Self.temporaryFile(named: "report.pdf", contents: contents)
        try await withServer({ _ in Response(status: .noContent) }) { server, manager in
            _ = try await UploadDocumentAPI(name: "a.pdf", document: HTTPBody(contents)).using(manager).start()
            _ = try await UploadDocumentAPI(name: "b.pdf", document: HTTPBody(contentsOf: file)).using(manager).start()
            let requests = server.requests
            #expect(requests.map(\.target) == ["/v1/documents/a.pdf", "/v1/documents/b.pdf"])
            for request in requests {
                #expect(request.headers[.contentType] == "application/pdf")
                #expect(request.headers[.contentLength] == "\(contents.count)")
                #expect(request.body == contents)
            }
        }
    }

    @Test("A file part naming a missing file is an invalid request naming the API and the path; nothing is sent")
    func missingFile() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString).jpg")
        try await withServer({ _ in Response(status: .noContent) }) { server, manager in
            let error = await #expect(throws: APIError.self) {
                try await UploadAvatarAPI(id: 7, photo: UploadFile(contentsOf: missing)).using(manager).start()
            }
            #expect(error?.api == "UploadAvatar")
            guard case .invalidRequest(let message)? = error?.reason else {
                Issue.record("expected .invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(message.contains(missing.path))
            #expect(message.contains("'photo'"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("A body that can be read again is sent again on a retry; one read once is not retried")
    func retriesOnlyReplayableBodies() async throws {
        let contents = Data("%PDF-1.7 tiny".utf8)
        let file = try Self.temporaryFile(named: "retry.pdf", contents: contents)
        let retrying: (inout APIManager.Configuration) -> Void = {
            $0.retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1))
        }
        try await withServer(configure: retrying, { _ in Response(status: .serviceUnavailable) }) { server, manager in
            await #expect(throws: APIError.self) {
                try await UploadDocumentAPI(name: "file.pdf", document: HTTPBody(contentsOf: file)).using(manager).start()
            }
            #expect(server.requests.count == 3)
            #expect(server.requests.allSatisfy { $0.body == contents }, "every attempt sends the whole file")

            let once = AsyncStream<Data> { continuation in
                continuation.yield(contents)
                continuation.finish()
            }
            await #expect(throws: APIError.self) {
                try await UploadDocumentAPI(name: "stream.pdf", document: HTTPBody(once)).using(manager).start()
            }
            #expect(server.requests.filter { $0.target.hasSuffix("stream.pdf") }.map(\.body) == [contents])
        }
    }
}

extension JSONDecoder {
    /// Decodes the example workspace's JSON (ISO 8601 dates with fractional seconds).
    static var example: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: text) { return date }
            formatter.formatOptions = [.withInternetDateTime]
            guard let date = formatter.date(from: text) else { throw DecodingError.dataCorruptedError(in: try decoder.singleValueContainer(), debugDescription: text) }
            return date
        }
        return decoder
    }
}
