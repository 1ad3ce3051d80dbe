import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import ReferenceClient
import Testing
import WireTestSupport

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
            api.options.baseURL = server.baseURL
            // The manifest's 0.75 s is too short for a loaded machine running the sanitizer.
            api.options.timeout = .seconds(10)
            _ = try await api.start()
            let request = try #require(server.requests.first)
            #expect(request.method == .put)
            #expect(request.target == "/items/\(id.uuidString)/versions/3")
            #expect(request.bodyText == #"{"change_note":"fix","item":{"attributes":{"color":["red"]},"children":[],"default":true,"id":"00000000-0000-0000-0000-00000000002A","kind":"digital-download","price_eur":9.5,"sizes":[1]}}"#)
        }
    }

    @Test("A model declared mutable: true is edited after decoding (its fields are var; others' are let)")
    func editMutableModel() async throws {
        try await withServer({ _ in .json(#"{"lines": [{"sku": "a", "quantity": 1}], "total": 3}"#) }) { server, manager in
            var cart = try await RefGetCartAPI().using(manager).start()
            cart.lines.append(RefCartLine(sku: "b", quantity: 2))
            cart.total += 4
            #expect(cart == RefCart(lines: [RefCartLine(sku: "a", quantity: 1), RefCartLine(sku: "b", quantity: 2)], total: 7))
            #expect(try #require(server.requests.first).target == "/api/cart")
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
            api.options.baseURL = server.baseURL
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

    @Test("A path template's own text keeps what a path allows and escapes the rest")
    func pathText() {
        #expect(PercentEncoding.pathText("/a/b:c@d/(e)!$&'*+,;=") == "/a/b:c@d/(e)!$&'*+,;=")
        #expect(PercentEncoding.pathText("/already%20escaped/50%") == "/already%20escaped/50%25")
        #expect(PercentEncoding.pathText(#"/q"u\o te/ü"#) == "/q%22u%5Co%20te/%C3%BC")
    }

    @Test("Forms write a space as +")
    func form() {
        #expect(PercentEncoding.form("a b+c") == "a+b%2Bc")
    }
}

/// The reference workspace's JSON-RPC APIs: by-name with renamed and optional parameters, by
/// position with a nil in the middle, and the workspace's `reject` policy applied to RPC calls.
@Suite("Reference JSON-RPC client on a loopback server")
struct ReferenceRPCClientTests {
    @Test("By name: a renamed parameter, a nil one left out, a per-API header")
    func lookup() async throws {
        try await withServer({ request in
            guard case .integer(let id)? = JSONValue.parse(request.body)?["id"] else { return .json("{}") }
            return .json(#"{"jsonrpc": "2.0", "result": [], "id": \#(id)}"#)
        }) { server, manager in
            let items = try await RefLookupAPI(query: "lamp").using(manager).start()
            #expect(items.isEmpty)
            let request = try #require(server.requests.first)
            #expect(request.target == "/api/rpc")
            #expect(request.headers[HTTPField.Name("X-Catalog")!] == "1")
            #expect(JSONValue.parse(request.body)?["params"] == .object(["q": .string("lamp")]))
        }
    }

    @Test("By position: nil is sent as null so later parameters keep their places")
    func move() async throws {
        try await withServer({ request in
            guard case .integer(let id)? = JSONValue.parse(request.body)?["id"] else { return .json("{}") }
            return .json(#"{"jsonrpc": "2.0", "result": true, "id": \#(id)}"#)
        }) { server, manager in
            let id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
            let moved = try await RefMoveAPI(item: id, default: false).using(manager).start()
            #expect(moved)
            #expect(JSONValue.parse(server.requests[0].body)?["params"] == .array([.string(id.uuidString), .null, .bool(false)]))
        }
    }

    @Test("frequency: reject compares what was asked, not the envelope whose id changes every call")
    func rejectDuplicateRPC() async throws {
        try await withServer({ request in
            try await Task.sleep(for: .milliseconds(300))
            guard case .integer(let id)? = JSONValue.parse(request.body)?["id"] else { return .json("{}") }
            return .json(#"{"jsonrpc": "2.0", "result": [], "id": \#(id)}"#)
        }) { server, manager in
            async let first = RefLookupAPI(query: "lamp").using(manager).start()
            try await waitUntil { manager.inFlightCount == 1 }
            let second = await expectAPIError { try await RefLookupAPI(query: "lamp").using(manager).start() }
            #expect(second?.reason == .duplicateRequest(message: "an identical request is already in flight"))
            let other = try await RefLookupAPI(query: "desk").using(manager).start()
            let firstResult = try await first
            #expect(firstResult.isEmpty && other.isEmpty)
            #expect(server.requests.count == 2)
            #expect(manager.inFlightCount == 0)
        }
    }
}
