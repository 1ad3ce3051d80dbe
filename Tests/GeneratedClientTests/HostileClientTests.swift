import APIRuntime
import APITestSupport
import Foundation
import HostileClient
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// Hostile manifest strings (quotes, backslashes, `\(`, `"""`, `#"`, `*/`, newlines, right-to-left
/// and zero-width characters) arrive in the program as the same strings, and on the wire.
@Suite("Hostile strings stay data")
struct HostileClientTests {
    @Test("Definitions, enum raw values and JSON keys hold exactly the manifest's text")
    func literals() throws {
        let definition = HEvilAPI.definition
        #expect(definition.name == #"Evil"""API"#)
        #expect(definition.path == #"/evil/"quoted"/\(x)/{id}/ünï"#)
        #expect(definition.headers.map(\.value) == ["\"\\(injection)\"\"\" */ \u{200B}"])
        #expect(definition.defaults.headers.map(\.value) == [##"*/ """ \(boom) #"raw"#"##])
        #expect(HMood.allCases.map(\.rawValue) == [##""""#"##, #"\(evil)"#, "\u{202E}abc", "line1\nline2", ""])

        let payload = HPayload(weirdKeyQuoted: "v", naiveCafe: 1, _2fa: true, default: .newline)
        let json = try JSONSerialization.jsonObject(with: JSONCoding.makeEncoder().encode(payload)) as? [String: Any]
        #expect(Set(json?.keys ?? [:].keys) == [#"key "quoted", \back\slash\ and \(x)"#, "naïve café", "2fa", "default"])
    }

    @Test("A model without fields is an empty JSON object both ways; fields named like the coding locals round-trip")
    func codingEdges() throws {
        let encoder = JSONCoding.makeEncoder()
        #expect(String(decoding: try encoder.encode(HNothing()), as: UTF8.self) == "{}")
        #expect(try JSONCoding.makeDecoder().decode(HNothing.self, from: Data("{}".utf8)) == HNothing())

        let shadows = HShadows(fields: 3, decoder: "d", encoder: [HNothing()])
        let text = String(decoding: try encoder.encode(shadows), as: UTF8.self)
        #expect(text == #"{"decoder":"d","encoder":[{}],"fields":3}"#)
        #expect(try JSONCoding.makeDecoder().decode(HShadows.self, from: Data(text.utf8)) == shadows)
    }

    @Test("A very long API name gets a shortened file but its full class name")
    func longName() {
        let name = "HVery" + String(repeating: "Long", count: 75) + "NameAPI"
        #expect(String(describing: HVeryLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongLongNameAPI.self) == name)
    }

    @Test("On the wire: the hostile path is percent-encoded, the body key and header values sent as written")
    func onTheWire() async throws {
        try await withServer({ _ in .json(##""\"\"\"#""##) }) { server, manager in
            let api = HEvilAPI(id: "a/b", headerValue: "v", bodyField: HPayload(weirdKeyQuoted: "q", naiveCafe: 2, _2fa: false, default: .rtl)).using(manager)
            api.options.baseURL = server.baseURL
            let mood = try await api.start()
            #expect(mood == .happy)
            let request = try #require(server.requests.first)
            #expect(request.target == "/evil/%22quoted%22/%5C(x)/a%2Fb/%C3%BCn%C3%AF")
            #expect(request.headers[HTTPField.Name("X-Static")!] == "\"\\(injection)\"\"\" */ \u{200B}")
            let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
            #expect(body?.keys.first == #"wire "name" \(x)"#)
        }
    }
}
