@testable import APIRuntime
import APIWireFormat
import APITestSupport
import Foundation
import Testing

/// How a builder's path parameters fill the path template, and which URLs it accepts.
@Suite("Request builder")
struct RequestBuilderTests {
    let definition = APIDefinition(name: "GetPart", method: .get, path: "/items/{id}/parts/{part}", defaults: APIDefaults())
    let base = BaseURL("https://h/v1/")!

    func request(_ builder: RequestBuilder, for definition: APIDefinition? = nil) throws(APIError) -> APIRequest {
        try builder.makeRequest(for: definition ?? self.definition, at: base, headers: [], timeout: .seconds(1), deadline: .now + .seconds(1))
    }

    @Test("Each placeholder takes its value, percent-encoded; the last value given for a name wins")
    func fillsPlaceholders() throws {
        let builder = RequestBuilder()
            .path("id", 1)
            .path("part", "a b/c")
            .path("id", 7)
            .query("q", "x&y")
        let request = try request(builder)
        #expect(request.head.scheme == "https" && request.head.authority == "h")
        #expect(request.head.path == "/v1/items/7/parts/a%20b%2Fc?q=x%26y")
        #expect(request.url?.absoluteString == "https://h/v1/items/7/parts/a%20b%2Fc?q=x%26y")
    }

    @Test("A placeholder without a value is an invalid request naming the API and the parameter")
    func missingValue() {
        let builder = RequestBuilder().path("id", 7)
        #expect {
            try request(builder)
        } throws: { error in
            let error = error as? APIError
            return error?.api == "GetPart" && error?.reason == .invalidRequest(message: "no value for path parameter 'part'")
        }
    }

    @Test("The template is split once: fixed text percent-encoded, a slash in front, an unclosed brace kept as text")
    func splitsTemplate() {
        #expect(PathTemplate("/items/{id}/parts/{part}").parts == [.text("/items/"), .placeholder("id"), .text("/parts/"), .placeholder("part")])
        #expect(PathTemplate("items/{id}").parts == [.text("/items/"), .placeholder("id")])
        #expect(PathTemplate("{id}{part}").parts == [.text("/"), .placeholder("id"), .placeholder("part")])
        #expect(PathTemplate("/a b/{id}.json").parts == [.text("/a%20b/"), .placeholder("id"), .text(".json")])
        #expect(PathTemplate("/a{b").parts == [.text("/a%7Bb")])
        #expect(PathTemplate("").parts == [])
    }

    @Test("A template's text and values make the URL's path")
    func expandsTemplate() throws {
        let builder = RequestBuilder().path("id", "ü")
        let definition = APIDefinition(name: "GetFile", method: .get, path: "files/{id}.json", defaults: APIDefaults())
        let request = try request(builder, for: definition)
        #expect(request.url?.absoluteString == "https://h/v1/files/%C3%BC.json")
    }

    @Test("A base URL is parsed once: scheme and host lowercased, the port filled in, the path without its last slash")
    func parsesBaseURLs() throws {
        let base = try #require(BaseURL("HTTPS://API.Example.com/v1/"))
        #expect(base.scheme == "https" && base.authority == "API.Example.com" && base.host == "api.example.com")
        let international = try #require(BaseURL("https://Bücher.example./v1"))
        #expect(international.authority == "xn--bcher-kva.example." && international.host == "xn--bcher-kva.example")
        #expect(base.port == 443 && base.path == "/v1")
        let loopback = try #require(BaseURL("http://[::1]:8080"))
        #expect(loopback.authority == "[::1]:8080" && loopback.host == "::1" && loopback.port == 8080 && loopback.path == "")
        let grpc = try #require(BaseURL("grpc://localhost:50051"))
        #expect(grpc.origin == Origin(scheme: "grpc", host: "localhost", port: 50051))
        // User info is never part of where a request goes.
        #expect(BaseURL("https://user:secret@h.example/x")?.authority == "h.example")
    }

    @Test("A base URL needs a scheme and a host, and no query, fragment or port past 65535", arguments: [
        "/items/7", "h/v1", "https://", "https:///x", "https://h?q=1", "https://h#top", "http://h:70000/x", "ht tp://h",
    ])
    func refusesBaseURLs(text: String) {
        #expect(BaseURL(text) == nil)
    }

    @Test("An empty path is the root")
    func emptyPath() throws {
        let definition = APIDefinition(name: "Root", method: .get, path: "", defaults: APIDefaults())
        let request = try RequestBuilder().makeRequest(
            for: definition, at: try #require(BaseURL("https://h")), headers: [], timeout: .seconds(1), deadline: .now + .seconds(1)
        )
        #expect(request.head.path == "/")
    }

    @Test("A base URL without a host is an invalid request naming the API")
    func relativeBaseURL() async throws {
        let manager = APIManager()
        let api = BaseAPI(definition: definition, response: .noContent, request: RequestBuilder().path("id", 7).path("part", 1)).using(manager)
        api.options.baseURL = "/v1"
        let error = await expectAPIError { try await api.start() }
        #expect(error?.api == "GetPart")
        #expect(error?.reason == .invalidRequest(message: "'/v1' is not a base URL: it needs a scheme and a host, and no query or fragment"))
        await manager.shutdown()
    }
}
