import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// Error bodies the manifest declares, decoded into `APIError.serverError`.
@Suite("Declared error bodies on a loopback server")
struct ErrorResponseTests {
    @Test("A declared status's body decodes into its type, and the error stays .httpStatus with the bytes")
    func declaredStatus() async throws {
        let body = #"{"errors": [{"field": "name", "message": "must not be empty"}]}"#
        try await withServer({ _ in .json(body, status: .unprocessableContent) }) { _, manager in
            let error = await expectAPIError { try await UpdateUserAPI(id: 7, name: "", etag: "v1").using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 422, body: Data(body.utf8)))
            let invalid = try #require(error?.serverError as? ValidationErrors)
            #expect(invalid == ValidationErrors(errors: [FieldError(field: "name", message: "must not be empty")]))
        }
    }

    @Test("Any other error status decodes into the workspace's default error body")
    func workspaceDefault() async throws {
        let body = #"{"title": "Not Found", "status": 404, "detail": "no user 7"}"#
        try await withServer({ _ in .json(body, status: .notFound) }) { _, manager in
            let update = await expectAPIError { try await UpdateUserAPI(id: 7, etag: "v1").using(manager).start() }
            #expect(update?.serverError as? Problem == Problem(title: "Not Found", status: 404, detail: "no user 7"))
            let get = await expectAPIError { try await GetUserAPI(id: 7).using(manager).start() }
            #expect(get?.reason == .httpStatus(code: 404, body: Data(body.utf8)))
            #expect(get?.serverError as? Problem == Problem(title: "Not Found", status: 404, detail: "no user 7"))
        }
    }

    @Test("A body that is not the declared type leaves serverError nil and keeps the bytes")
    func undecodableBody() async throws {
        try await withServer({ _ in Response(status: .badGateway, body: .init(byteBuffer: .init(string: "<html>bad gateway</html>"))) }) { _, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 502, body: Data("<html>bad gateway</html>".utf8)))
            #expect(error?.serverError == nil)
        }
    }

    @Test("Declared response headers are read as their types; absent or unreadable ones are nil")
    func typedHeaders() async throws {
        try await withServer({ _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json", .eTag: #""v2""#, HTTPField.Name("X-RateLimit-Remaining")!: "41", .lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"],
                body: .init(byteBuffer: .init(string: Samples.userJSON))
            )
        }) { _, manager in
            let (user, headers) = try await UpdateUserAPI(id: 7, etag: "v1").using(manager).startWithHeaders()
            #expect(user.id == 7)
            #expect(headers.etag == #""v2""#)
            #expect(headers.rateLimitRemaining == 41)
            #expect(headers.lastModified == Date(timeIntervalSince1970: 784_111_777))
        }
        try await withServer({ _ in
            Response(status: .ok, headers: [HTTPField.Name("X-RateLimit-Remaining")!: "many"], body: .init(byteBuffer: .init(string: Samples.userJSON)))
        }) { _, manager in
            let (_, headers) = try await UpdateUserAPI(id: 7, etag: "v1").using(manager).startWithHeaders()
            #expect(headers == UpdateUserAPI.ResponseHeaders(HeaderReader([:])))
        }
    }
}
