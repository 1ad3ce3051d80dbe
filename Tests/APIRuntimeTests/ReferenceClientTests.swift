import APIRuntime
import Foundation
import HTTPTypes
import Hummingbird
import ReferenceClient
import Testing

/// The reference workspace's generated code (class prefix, keyword names, custom raw values, a
/// per-API base URL, form bodies with enums and lists) on the wire.
@Suite("Reference client on a loopback server")
struct ReferenceClientTests {
    @Test("PUT with two path parameters, a model and a renamed field in the JSON body")
    func putItem() async throws {
        try await withServer({ _ in Response(status: .noContent) }) { server, manager in
            let id = UUID(uuidString: "00000000-0000-0000-0000-00000000002A")!
            let item = RefItem(id: id, default: true, price: 9.5, sizes: [1], attributes: ["color": ["red"]], kind: .digital, children: [])
            let api = RefPutItemAPI(id: id, version: 3, item: item, note: "fix").using(manager)
            api.baseURL = server.baseURL
            _ = try await api.start()
            let request = try #require(server.requests.first)
            #expect(request.method == .put)
            #expect(request.target == "/items/\(id.uuidString)/versions/3")
            #expect(request.bodyText == #"{"change_note":"fix","item":{"attributes":{"color":["red"]},"children":[],"default":true,"id":"00000000-0000-0000-0000-00000000002A","kind":"digital-download","price_eur":9.5,"sizes":[1]}}"#)
        }
    }

    @Test("A form with a list, a Bool and an enum raw value; a dictionary response; the workspace's trailing-slash base URL")
    func uploadForm() async throws {
        try await withServer({ _ in .json(#"{"a": 1}"#) }) { server, manager in
            let result = try await RefUploadFormAPI(title: "A & B", tags: ["x", "y z"], draft: false, kind: .subscription).using(manager).start()
            #expect(result == ["a": 1])
            let request = try #require(server.requests.first)
            #expect(request.target == "/api/upload")
            #expect(request.bodyText == "title=A+%26+B&tags=x&tags=y+z&draft=false&kind=sub+%22monthly%22")
        }
    }

    @Test("Date and enum list query parameters, a keyword-named parameter, a header parameter")
    func listItemsQuery() async throws {
        try await withServer({ _ in .json("[]") }) { server, manager in
            let api = RefListItemsAPI(status: [.inStock, ._2ndHand], since: Date(timeIntervalSince1970: 0), in: 3, locale: "de-CH").using(manager)
            api.baseURL = server.baseURL
            let items = try await api.start()
            #expect(items.isEmpty)
            let request = try #require(server.requests.first)
            #expect(request.query == "status=in-stock&status=2nd-hand&updated_since=1970-01-01T00%3A00%3A00Z&in=3")
            #expect(request.headers[.acceptLanguage] == "de-CH")
            #expect(request.headers[HTTPField.Name("X-Client")!] == #"reference "quoted""#)
        }
    }
}

@Suite("Percent-encoding")
struct PercentEncodingTests {
    @Test("Only unreserved characters stay; UTF-8 bytes are escaped one by one")
    func component() {
        #expect(PercentEncoding.component("aZ09-._~") == "aZ09-._~")
        #expect(PercentEncoding.component("a b/c?d#e&f=g+h%i") == "a%20b%2Fc%3Fd%23e%26f%3Dg%2Bh%25i")
        #expect(PercentEncoding.component("é€😀") == "%C3%A9%E2%82%AC%F0%9F%98%80")
    }

    @Test("Forms write a space as +")
    func form() {
        #expect(PercentEncoding.form("a b+c") == "a+b%2Bc")
    }
}
