@testable import APIRuntime
import Testing

/// How a builder's path parameters fill the path template.
@Suite("Request builder")
struct RequestBuilderTests {
    let definition = APIDefinition(name: "GetPart", method: .get, path: "/items/{id}/parts/{part}", defaults: APIDefaults())
    let resolved = RequestBuilder.Resolved(baseURL: "https://h/v1/", headers: [], timeout: .seconds(1))

    @Test("Each placeholder takes its value, percent-encoded; the last value given for a name wins")
    func fillsPlaceholders() throws {
        var builder = RequestBuilder()
        builder.path("id", 1)
        builder.path("part", "a b/c")
        builder.path("id", 7)
        builder.query("q", "x&y")
        let request = try builder.makeRequest(for: definition, resolved)
        #expect(request.url.absoluteString == "https://h/v1/items/7/parts/a%20b%2Fc?q=x%26y")
    }

    @Test("A placeholder without a value is an invalid request naming the API and the parameter")
    func missingValue() {
        var builder = RequestBuilder()
        builder.path("id", 7)
        #expect {
            try builder.makeRequest(for: definition, resolved)
        } throws: { error in
            let error = error as? APIError
            return error?.api == "GetPart" && error?.reason == .invalidRequest(message: "no value for path parameter 'part'")
        }
    }
}
