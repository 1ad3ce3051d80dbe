import APIWireFormat
import Testing

/// The one path-template grammar the generator, the runtime, the mock server and the recorder read.
@Suite("Path templates")
struct PathTemplateTests {
    @Test("A manifest's path: each mistake at the column of its character")
    func validating() throws {
        func failure(_ template: String) -> PathTemplate.SyntaxError? {
            do {
                _ = try PathTemplate(validating: template)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure("/users/{id}/posts/{post}") == nil)
        #expect(failure("/users/{}")?.offset == 7)
        #expect(failure("/users/{id")?.message == "'{' is never closed")
        #expect(failure("/users/id}")?.offset == 9)
        #expect(failure("/users/{i{d}")?.offset == 9)
        #expect(failure("/users?page=1")?.offset == 6)
        #expect(failure("/users#top")?.offset == 6)
        let template = try PathTemplate(validating: "/ünï/{id}")
        #expect(template.placeholders.map(\.name) == ["id"])
        #expect(template.placeholders.map(\.offset) == [5], "offsets count characters, not bytes")
    }

    @Test("Filled: fixed text encoded as a path allows, each value as a segment; a missing or empty value is an error")
    func filling() throws {
        var path = "/v1"
        try PathTemplate("/files/{name}/a b").append(to: &path) { $0 == "name" ? "a/b c+%" : nil }
        #expect(path == "/v1/files/a%2Fb%20c%2B%25/a%20b")
        var dots = ""
        try PathTemplate("/{id}").append(to: &dots) { _ in ".." }
        #expect(dots == "/%2E%2E")
        var unused = ""
        #expect(throws: PathTemplate.FillingError.missing("id")) { try PathTemplate("/{id}").append(to: &unused) { _ in nil } }
        #expect(throws: PathTemplate.FillingError.empty("id")) { try PathTemplate("/{id}").append(to: &unused) { _ in "" } }
        #expect(PathTemplate("/a{b").parts == [.text("/a%7Bb")], "a '{' without '}' is fixed text")
        #expect(PathTemplate("/users/{id}").text == "/users/{id}")
    }

    @Test("Matched against a path as sent, from its end: values within their segment, a base URL's path before")
    func matching() throws {
        func values(_ template: String, _ path: String) -> [String]? {
            guard let match = PathTemplate(template).match(path[...]) else { return nil }
            return [String(match.prefix)] + match.values.map { "\($0.name)=\(path[$0.range])" }
        }
        #expect(values("/users/{id}", "/users/7") == ["", "id=7"])
        #expect(values("/users/{id}", "/v1/users/7") == ["/v1", "id=7"])
        #expect(values("/users/{id}/posts/{post}", "/users/a%2Fb/posts/9") == ["", "id=a%2Fb", "post=9"])
        #expect(values("/files/{name}.{ext}", "/files/a.b.tar") == ["", "name=a.b", "ext=tar"])
        #expect(values("/v{version}/items", "/v2/items") == ["", "version=2"])
        #expect(values("/users/{id}", "/users/7/") == nil, "a trailing slash is another resource")
        #expect(values("/users/{id}", "/users/a/b") == nil, "a value never holds a '/'")
        #expect(values("/users/{id}", "/users/") == nil, "an empty value matches nothing")
        #expect(values("/users/{id}", "/people/7") == nil)
        #expect(values("/{a}{b}", "/xy") == nil, "two placeholders side by side cannot be told apart")
    }
}
