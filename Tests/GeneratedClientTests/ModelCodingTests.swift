import APIRuntime
import APITestSupport
import Foundation
import Hummingbird
import ReferenceClient
import Testing
import WireTestSupport

/// Generated models and enums as the server's JSON reaches them: derived `Codable` with renamed
/// keys, enums that keep a value they do not know, frozen enums that refuse one, integer enums.
@Suite("Generated models and enums on the wire")
struct ModelCodingTests {
    /// An item as a server writes it, with `kind` and `priority` given as the caller passes them.
    static func itemJSON(kind: String = #""PHYSICAL""#, priority: String = "5") -> String {
        #"{"id":"00000000-0000-0000-0000-00000000002A","default":true,"price_eur":9.5,"sizes":[1,-2],"attributes":{"color":["red"]},"payload":null,"kind":\#(kind),"children":[],"priority":\#(priority)}"#
    }

    @Test("A reply decodes through the renamed key, a null optional, a string and an integer enum")
    func decodesServerReply() async throws {
        try await withServer({ _ in .json("[\(Self.itemJSON())]") }) { server, manager in
            let api = RefListItemsAPI(locale: "en").using(manager)
            api.options.baseURL = server.baseURL
            let items = try await api.start()
            let item = try #require(items.first)
            #expect(item.price == 9.5 && item.payload == nil && item.sizes == [1, -2])
            #expect(item.kind == .physical && item.priority == .normal)
        }
    }

    @Test("Values the client does not know decode to `unknown` and are sent back as they came")
    func unknownValuesSurvive() async throws {
        let reply = "[\(Self.itemJSON(kind: #""gift-card""#, priority: "7"))]"
        try await withServer({ request in
            request.method == .get ? .json(reply) : Response(status: .noContent)
        }) { server, manager in
            let list = RefListItemsAPI(locale: "en").using(manager)
            list.options.baseURL = server.baseURL
            let item = try #require(try await list.start().first)
            #expect(item.kind == .unknown("gift-card") && item.kind.rawValue == "gift-card")
            #expect(item.priority == .unknown(7) && item.priority?.rawValue == 7)

            let put = RefPutItemAPI(id: item.id, version: 1, item: item).using(manager)
            put.options.baseURL = server.baseURL
            // The manifest's 0.75 s is too short for a loaded machine.
            put.options.timeout = .seconds(10)
            try await put.start()
            let sent = try #require(server.requests.last?.bodyText)
            #expect(sent.contains(#""kind":"gift-card""#) && sent.contains(#""priority":7"#))
        }
    }

    @Test("A frozen enum refuses a value it does not declare: the reply is a decoding error naming the API")
    func frozenEnumRefusesNewValue() async throws {
        try await withServer({ request in
            .json(request.target.hasPrefix("/api/new/") ? #"{"a": "in-stock", "b": "on-order"}"# : #"{"a": "sold-out"}"#)
        }) { server, manager in
            let levels = try await RefStockLevelsAPI().using(manager).start()
            #expect(levels == ["a": .soldOut])
            let api = RefStockLevelsAPI().using(manager)
            api.options.baseURL = server.baseURL + "/api/new"
            let error = await #expect(throws: APIError.self) { try await api.start() }
            #expect(error?.api == "StockLevels")
            guard case .decoding(let path, _)? = error?.reason else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(path.contains("b"))
        }
    }

    @Test("Known values never become `unknown`; allCases lists the known ones; raw values are the wire's")
    func rawValues() {
        #expect(RefKind(rawValue: "digital-download") == .digital)
        #expect(RefKind(rawValue: "digital") == .unknown("digital"))
        #expect(RefKind.allCases == [.physical, .digital, .subscription])
        #expect(RefPriority(rawValue: 10) == .urgent && RefPriority.urgent.rawValue == 10)
        #expect(RefPriority.allCases.map(\.rawValue) == [1, 5, 10])
        #expect(RefPriority.urgent.parameterText == "10" && RefKind.unknown("x y").parameterText == "x y")
        #expect(RefStatus(rawValue: "on-order") == nil)
    }

    @Test("Enums, decimals and calendar dates read from header text: whole values only")
    func headerValues() {
        #expect(RefPriority(headerText: " 10 ") == .urgent && RefPriority(headerText: "7") == .unknown(7))
        #expect(RefPriority(headerText: "ten") == nil && RefPriority(headerText: "99999999999999999999") == nil)
        #expect(RefStatus(headerText: "sold-out") == .soldOut && RefStatus(headerText: "gone") == nil)
        #expect(Decimal(headerText: "0.30") == Decimal(string: "0.30") && Decimal(headerText: "0.30abc") == nil)
        #expect(CalendarDate(headerText: "2024-02-30") == nil && Int32(headerText: "2147483648") == nil)
    }

    @Test("An integer enum refuses a string, and a string enum a number: a type mismatch, not `unknown`")
    func wrongJSONTypeIsAnError() {
        let decoder = JSONCoding.makeDecoder()
        #expect(throws: DecodingError.self) { try decoder.decode([RefPriority].self, from: Data(#"["5"]"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode([RefKind].self, from: Data("[5]".utf8)) }
    }

    @Test("Models are Hashable: equal models hash alike, any field's difference makes them unequal")
    func hashable() throws {
        let decoder = JSONCoding.makeDecoder()
        let item = try decoder.decode(RefItem.self, from: Data(Self.itemJSON().utf8))
        let same = try decoder.decode(RefItem.self, from: Data(Self.itemJSON().utf8))
        let other = try decoder.decode(RefItem.self, from: Data(Self.itemJSON(priority: "1").utf8))
        #expect(item == same && item.hashValue == same.hashValue)
        #expect(item != other)
        #expect(Set([item, same, other]).count == 2)
    }

    @Test("A missing required field is keyNotFound naming its JSON key")
    func missingField() {
        let missing = Self.itemJSON().replacingOccurrences(of: #""price_eur":9.5,"#, with: "")
        #expect {
            try JSONCoding.makeDecoder().decode(RefItem.self, from: Data(missing.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "price_eur"
        }
    }
}
