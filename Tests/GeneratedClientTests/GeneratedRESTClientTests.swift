import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// The generated ExampleClient module called against a real HTTP server on loopback: what goes on
/// the wire (method, path, query, headers, body) and what comes back (decoding, errors).
@Suite("Generated REST client on a loopback server")
struct GeneratedRESTClientTests {
    @Test("GET with a path parameter decodes a nested model, an enum, dates and URLs")
    func getUser() async throws {
        try await withServer({ _ in .json(Samples.userJSON) }) { server, manager in
            let user = try await GetUserAPI(id: 7).using(manager).start()

            #expect(user.id == 7)
            #expect(user.email == "ann@example.com")
            #expect(user.role == .admin)
            #expect(user.address?.postalCode == "12345")
            #expect(user.address?.location == Coordinates(latitude: 1.5, longitude: -2.25))
            #expect(user.tags == ["a", "b"])
            #expect(user.createdAt == Date(timeIntervalSince1970: 1_714_566_600.25))
            #expect(user.avatar == URL(string: "https://img.example.com/7.png"))

            let request = try #require(server.requests.first)
            #expect(request.method == .get)
            #expect(request.target == "/v1/users/7")
            #expect(request.headers[.accept] == "application/json")
            #expect(request.headers[.userAgent] == "ExampleClient/1.0")
            #expect(request.body.isEmpty)
        }
    }

    @Test("Query parameters: enums, repeated list items, percent-encoding, nil left out; a header parameter")
    func listUsersQuery() async throws {
        let page = #"{"items": [], "total": 0, "next_cursor": null}"#
        try await withServer({ _ in .json(page) }) { server, manager in
            let result = try await ListUsersAPI(role: .member, tags: ["a b", "c&d=é"], limit: 10, requestID: "req-1")
                .using(manager).start()
            #expect(result == UserPage(items: [], total: 0, nextCursor: nil))

            let request = try #require(server.requests.first)
            #expect(request.path == "/v1/users")
            #expect(request.query == "role=member&tag=a%20b&tag=c%26d%3D%C3%A9&limit=10")
            #expect(request.headers[HTTPField.Name("X-Request-ID")!] == "req-1")

            _ = try await ListUsersAPI().using(manager).start()
            #expect(server.requests.last?.target == "/v1/users")
        }
    }

    @Test("POST with a JSON body: keys sorted, nil fields left out, nested models, a UUID header")
    func createUserJSONBody() async throws {
        try await withServer({ _ in .json(Samples.userJSON, status: .created) }) { server, manager in
            let key = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF")!
            let address = Address(street: "1 Main St", city: "Springfield", postalCode: "12345")
            let user = try await CreateUserAPI(name: "Ann \"The\" Admin", role: .member, address: address, idempotencyKey: key)
                .using(manager).start()
            #expect(user.name == "Ann")

            let request = try #require(server.requests.first)
            #expect(request.method == .post)
            #expect(request.target == "/v1/users")
            #expect(request.headers[.contentType] == "application/json")
            #expect(request.headers[HTTPField.Name("Idempotency-Key")!] == key.uuidString)
            #expect(request.bodyText == #"{"address":{"city":"Springfield","postal_code":"12345","street":"1 Main St"},"name":"Ann \"The\" Admin","role":"member"}"#)
        }
    }

    @Test("PATCH with a path parameter, a header parameter and a partial JSON body")
    func updateUser() async throws {
        try await withServer({ _ in .json(Samples.userJSON) }) { server, manager in
            _ = try await UpdateUserAPI(id: 7, tags: ["x"], etag: "\"v1\"").using(manager).start()
            let request = try #require(server.requests.first)
            #expect(request.method == .patch)
            #expect(request.target == "/v1/users/7")
            #expect(request.headers[.ifMatch] == "\"v1\"")
            #expect(request.bodyText == #"{"tags":["x"]}"#)
        }
    }

    @Test("DELETE answered 204 gives NoContent; HEAD works; a bare JSON number decodes")
    func noContentHeadAndScalar() async throws {
        try await withServer({ request in
            switch (request.method, request.path) {
            case (.delete, _): return Response(status: .noContent)
            case (.head, _): return Response(status: .ok)
            default: return .json("42")
            }
        }) { server, manager in
            let deleted = try await DeleteUserAPI(id: 3).using(manager).start()
            let health = try await CheckHealthAPI().using(manager).start()
            let count = try await CountUsersAPI().using(manager).start()
            #expect(deleted == NoContent())
            #expect(health == NoContent())
            #expect(count == 42)
            #expect(server.requests.map(\.method) == [.delete, .head, .get])
            #expect(server.requests.map(\.target) == ["/v1/users/3", "/v1/health", "/v1/users/count"])
        }
    }

    @Test("A form-encoded body, a per-API base URL and a per-API header")
    func signInForm() async throws {
        let token = #"{"access_token": "t0k", "token_type": "bearer", "expires_in": 3600, "scopes": {"read": true, "write": false}}"#
        try await withServer({ _ in .json(token) }) { server, manager in
            let result = try await SignInAPI(grantType: "password", username: "ann@example.com", password: "p w&rd+é", scope: ["read", "write"])
                .using(manager).start()
            #expect(result == Token(accessToken: "t0k", tokenType: "bearer", expiresIn: 3600, scopes: ["read": true, "write": false]))

            let request = try #require(server.requests.first)
            #expect(request.target == "/auth/oauth/token")
            #expect(request.headers[.contentType] == "application/x-www-form-urlencoded")
            #expect(request.headers[.cacheControl] == "no-store")
            #expect(request.bodyText == "grant_type=password&username=ann%40example.com&password=p+w%26rd%2B%C3%A9&scope=read&scope=write")
        }
    }

    @Test("A path parameter is percent-encoded into one segment; a text response is a String")
    func pathEncodingAndText() async throws {
        try await withServer({ _ in .text("hello, world\n") }) { server, manager in
            let api = DownloadTextAPI(name: "a b/c?d%e#f é").using(manager)
            api.options.timeout = .seconds(10)  // the manifest's 2.5 s is short for a loaded sanitizer run
            let text = try await api.start()
            #expect(text == "hello, world\n")
            #expect(server.requests.first?.target == "/v1/files/a%20b%2Fc%3Fd%25e%23f%20%C3%A9")
        }
    }

    @Test("A path parameter of . or .. is escaped, so it cannot climb the path", arguments: [(".", "%2E"), ("..", "%2E%2E"), ("...", "...")])
    func dotSegments(value: String, sent: String) async throws {
        try await withServer({ _ in .text("ok") }) { server, manager in
            let api = DownloadTextAPI(name: value).using(manager)
            api.options.timeout = .seconds(10)
            _ = try await api.start()
            #expect(server.requests.first?.target == "/v1/files/" + sent)
        }
    }

    @Test("A non-2xx status is an error naming the API, with the status and the body, which only detailedDescription quotes")
    func httpStatusError() async throws {
        try await withServer({ _ in .json(#"{"error": "no such user"}"#, status: .notFound) }) { _, manager in
            let error = try #require(await expectAPIError { try await GetUserAPI(id: 404).using(manager).start() })
            #expect(error.api == "GetUser")
            #expect(error.reason == .httpStatus(code: 404, body: Data(#"{"error": "no such user"}"#.utf8)))
            #expect(error.description == "GetUser: HTTP 404 (25-byte body)", "the body is not quoted unless asked")
            #expect(error.detailedDescription == #"GetUser: HTTP 404: {"error": "no such user"}"#)
        }
    }

    @Test("A reply that does not match the model is a decoding error with its coding path")
    func decodingError() async throws {
        let broken = #"{"id": 7, "name": "Ann", "role": "admin", "tags": [], "created_at": "2024-05-01T12:30:00Z", "address": {"street": "x", "postal_code": "1"}}"#
        try await withServer({ _ in .json(broken) }) { _, manager in
            let error = try #require(await expectAPIError { try await GetUserAPI(id: 7).using(manager).start() })
            guard case .decoding(let codingPath, let message) = error.reason else {
                Issue.record("expected a decoding error, got \(error)")
                return
            }
            #expect(error.api == "GetUser")
            #expect(codingPath == "address.city")
            #expect(message.contains("missing key 'city'"))
        }
    }

    @Test("A role the client does not know decodes as `unknown`; a bad date, a number for the role and HTML are decoding errors, never a crash")
    func badValues() async throws {
        let newRole = Samples.userJSON.replacingOccurrences(of: #""admin""#, with: #""overlord""#)
        try await withServer({ _ in .json(newRole) }) { _, manager in
            let user = try await GetUserAPI(id: 7).using(manager).start()
            #expect(user.role == .unknown("overlord"))
        }
        let numericRole = Samples.userJSON.replacingOccurrences(of: #""admin""#, with: "3")
        let badDate = Samples.userJSON.replacingOccurrences(of: "2024-05-01T12:30:00.250Z", with: "yesterday")
        for (body, path) in [(numericRole, "role"), (badDate, "created_at"), ("<html>502 Bad Gateway</html>", "")] {
            try await withServer({ _ in .json(body) }) { _, manager in
                let error = try #require(await expectAPIError { try await GetUserAPI(id: 7).using(manager).start() })
                guard case .decoding(let codingPath, _) = error.reason else {
                    Issue.record("expected a decoding error, got \(error)")
                    return
                }
                #expect(codingPath == path)
            }
        }
    }
}
