import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// Headers that frame a message are the transport's: what a definition, a parameter or a call
/// sets for them never reaches the wire; a multipart part's content type cannot add headers.
@Suite("Message framing on a loopback server")
struct FramingTests {
    @Test("Content-Length, Transfer-Encoding, Connection, Host and the rest set by a definition or a call are dropped; the body goes out framed by the transport")
    func framingHeadersDropped() async throws {
        try await withServer({ request in .json(#"{"bytes": \#(request.body.count)}"#) }) { server, manager in
            let definition = APIDefinition(
                name: "Post", wire: .http(.post, path: "/v1/echo"),
                headers: [(name: "Content-Length", value: "99"), (name: "X-Kept", value: "yes")],
                timeout: .seconds(10), defaults: APIDefaults(baseURL: server.baseURL)
            )
            let api = BaseAPI<[String: Int]>(definition: definition, response: .json, request: RequestBuilder().body("a", 1)).using(manager)
            api.options.headers = [
                (name: "Transfer-Encoding", value: "chunked"), (name: "Content-Length", value: "1000"), (name: "Connection", value: "close"),
                (name: "Keep-Alive", value: "timeout=1"), (name: "TE", value: "trailers"), (name: "Upgrade", value: "h2c"),
                (name: "Proxy-Connection", value: "close"), (name: "Host", value: "elsewhere.example"),
            ]
            let reply = try await api.start()
            #expect(reply == ["bytes": 7])
            let received = try #require(server.requests.first)
            #expect(received.body.count == 7)
            #expect(received.headers[.contentLength] == "7")
            #expect(received.headers[.transferEncoding] == nil)
            #expect(received.headers[HTTPField.Name("X-Kept")!] == "yes")
            #expect(received.headers[.upgrade] == nil && received.headers[HTTPField.Name("Proxy-Connection")!] == nil)
            #expect(received.headers[HTTPField.Name("Keep-Alive")!] == nil && received.headers[.te] == nil)
        }
    }

    @Test("A file part's content type with a line break or NUL is an invalid request, and nothing is sent")
    func multipartContentType() async throws {
        try await withServer({ _ in .json(Samples.userJSON) }) { server, manager in
            for contentType in ["text/plain\r\nX-Injected: yes", "text/plain\nX: y", "text/plain\0"] {
                let photo = UploadFile(Data("hi".utf8), fileName: "a.txt", contentType: contentType)
                let error = await expectAPIError { try await UploadAvatarAPI(id: 7, photo: photo).using(manager).start() }
                #expect(error?.reason == .invalidRequest(message: "the content type of the file part 'photo' holds a line break or NUL"))
            }
            #expect(server.requests.isEmpty)
            // Names and file names are escaped as browsers escape them, NUL included.
            let photo = UploadFile(Data("hi".utf8), fileName: "a\0\r\n\".txt", contentType: "text/plain")
            _ = try await UploadAvatarAPI(id: 7, photo: photo).using(manager).start()
            let body = try #require(server.requests.first).bodyText
            #expect(body.contains(#"filename="a%00%0D%0A%22.txt""#))
        }
    }
}
