@testable import APIRuntime
import Foundation
import Testing

/// How a builder's path parameters fill the path template, and which URLs it accepts.
@Suite("Request builder")
struct RequestBuilderTests {
    let definition = APIDefinition(name: "GetPart", method: .get, path: "/items/{id}/parts/{part}", defaults: APIDefaults())
    let resolved = RequestBuilder.Resolved(baseURL: "https://h/v1/", headers: [], timeout: .seconds(1))

    @Test("Each placeholder takes its value, percent-encoded; the last value given for a name wins")
    func fillsPlaceholders() throws {
        let builder = RequestBuilder()
            .path("id", 1)
            .path("part", "a b/c")
            .path("id", 7)
            .query("q", "x&y")
        let request = try builder.makeRequest(for: definition, resolved)
        #expect(request.url.absoluteString == "https://h/v1/items/7/parts/a%20b%2Fc?q=x%26y")
    }

    @Test("A placeholder without a value is an invalid request naming the API and the parameter")
    func missingValue() {
        let builder = RequestBuilder().path("id", 7)
        #expect {
            try builder.makeRequest(for: definition, resolved)
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
        let request = try builder.makeRequest(for: definition, resolved)
        #expect(request.url.absoluteString == "https://h/v1/files/%C3%BC.json")
    }

    @Test("A URL needs a scheme and a non-empty host (Foundation's URL accepts an empty one)", arguments: [
        ("https://h/v1", true), ("http://127.0.0.1:8080/x", true), ("grpc://localhost:50051", true),
        ("https://user:pw@h.example/x", true), ("http://[::1]:80/", true), ("HTTP+X://h?q", true),
        ("/items/7", false), ("h/v1", false), ("https:/h", false), ("https://", false), ("https:///x", false),
        ("https://:80/x", false), ("https://user@/x", false), ("1http://h", false), ("://h", false), ("http://[]/", false),
        ("https://h", true), ("https://h?q=1", true), ("https://h#top", true), ("https://a@b@h/x", true),
        ("http:", false), ("http:/", false), ("http://[::1", false), ("https://?q", false), ("ht tp://h", false),
    ])
    func absoluteURLs(text: String, valid: Bool) throws {
        #expect(RequestBuilder.hasSchemeAndHost(text) == valid)
        if valid {
            let url = try #require(URL(string: text))
            #expect(url.scheme != nil && url.host != nil)
        }
    }

    @Test("A base URL without a host is an invalid request naming the API")
    func relativeBaseURL() {
        let builder = RequestBuilder().path("id", 7).path("part", 1)
        #expect {
            try builder.makeRequest(for: definition, RequestBuilder.Resolved(baseURL: "/v1", headers: [], timeout: .seconds(1)))
        } throws: { error in
            (error as? APIError)?.reason == .invalidRequest(message: "'/v1/items/7/parts/1' is not an absolute URL")
        }
    }
}
