import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

@Suite("Redirects on loopback servers")
struct RedirectTests {
    /// Headers a call carries: credentials of every kind, and one that is not a secret.
    static let headers: [(name: String, value: String)] = [
        ("Authorization", "Bearer T"), ("Cookie", "c=1"), ("X-API-Key", "K"), ("X-Session-Token", "S"), ("X-Trace", "kept"),
    ]

    static func redirect(to location: String, status: HTTPResponse.Status = .temporaryRedirect) -> Response {
        Response(status: status, headers: [.location: location])
    }

    @Test("The same origin: followed, every header kept")
    func sameOrigin() async throws {
        try await withServer({ request in
            request.path == "/v1/users/count" ? Self.redirect(to: "/v1/moved/count") : .json("7")
        }) { server, manager in
            let api = CountUsersAPI().using(manager)
            api.options.headers = Self.headers
            let count = try await api.start()
            #expect(count == 7)
            #expect(server.requests.map(\.path) == ["/v1/users/count", "/v1/moved/count"])
            #expect(server.requests.last?.headers[.authorization] == "Bearer T")
            #expect(server.requests.last?.headers[HTTPField.Name("X-API-Key")!] == "K")
        }
    }

    @Test("Another origin: followed, every credential header dropped, custom ones included; the rest kept")
    func otherOrigin() async throws {
        let other = try await LoopbackServer.start { _ in .json("9") }
        try await withServer({ _ in Self.redirect(to: other.baseURL + "/elsewhere") }) { server, manager in
            let api = CountUsersAPI().using(manager)
            api.options.headers = Self.headers
            let count = try await api.start()
            #expect(count == 9)
            let arrived = try #require(other.requests.first)
            #expect(arrived.path == "/elsewhere")
            for name in ["Authorization", "X-API-Key", "X-Session-Token"] {
                #expect(arrived.headers[HTTPField.Name(name)!] == nil, "\(name) went to another origin")
            }
            // URLSession's cookie jar may add its own cookies for the new host; the call's are gone.
            #expect(arrived.headers[.cookie]?.contains("c=1") != true)
            #expect(arrived.headers[HTTPField.Name("X-Trace")!] == "kept")
        }
    }

    @Test("303 after a POST goes on as a GET without the body; 307 sends the same method and body again")
    func methods() async throws {
        try await withServer({ request in
            switch request.path {
            case "/v1/users": Self.redirect(to: "/v1/created", status: request.headers[HTTPField.Name("X-Mode")!] == "303" ? .seeOther : .temporaryRedirect)
            default: .json(#"{"id": 1, "name": "a", "role": "guest", "tags": [], "created_at": "2024-01-01T00:00:00Z"}"#)
            }
        }) { server, manager in
            for mode in ["303", "307"] {
                let api = CreateUserAPI(name: "a", role: .guest, idempotencyKey: UUID()).using(manager)
                api.options.headers = [(name: "X-Mode", value: mode)]
                _ = try await api.start()
            }
            let followed = server.requests.filter { $0.path == "/v1/created" }
            #expect(followed.map(\.method) == [.get, .post])
            #expect(followed[0].body.isEmpty && followed[0].headers[.contentType] == nil)
            #expect(followed[1].bodyText.contains(#""name":"a""#))
        }
    }

    @Test("A redirect loop ends in an error after five")
    func loop() async throws {
        try await withServer({ _ in Self.redirect(to: "/v1/users/count") }) { server, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .invalidResponse(message: "more than 5 redirects"))
            #expect(server.requests.count == 6)
        }
    }

    @Test("With RedirectPolicy.none the 3xx is the reply")
    func notFollowed() async throws {
        try await withServer(configure: { $0.redirects = .none }, { _ in Self.redirect(to: "/v1/elsewhere") }) { server, manager in
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 307, body: Data()))
            #expect(server.requests.count == 1)
        }
    }
}
