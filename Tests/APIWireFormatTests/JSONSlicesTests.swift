import APIWireFormat
import Foundation
import Testing

/// Where the members of a JSON object and the elements of an array lie, and which text is JSON.
@Suite("JSON slices")
struct JSONSlicesTests {
    func text(_ slices: JSONSlices, _ range: Range<Int>) -> String { slices.text(of: range) }

    @Test("An object's members, as written: nested values, escapes and numbers kept to the byte")
    func members() throws {
        let json = #" { "a" : [1, {"b": null}, "]"] , "k\u0065y": "x\"y", "n": -0.1234567890123456789e+300, "e": {} } "#
        let slices = JSONSlices(Data(json.utf8))
        let members = try #require(try slices.members())
        #expect(members.map(\.key) == ["a", "key", "n", "e"])
        #expect(members.map { text(slices, $0.value) } == [#"[1, {"b": null}, "]"]"#, #""x\"y""#, "-0.1234567890123456789e+300", "{}"])
        #expect(try slices.elements() == nil)
        #expect(slices.kind == .object)
    }

    @Test("An array's elements, as written")
    func elements() throws {
        let slices = JSONSlices(Data(#"[{"id":1},2, "3" ,[],true,null]"#.utf8))
        let elements = try #require(try slices.elements())
        #expect(elements.map { text(slices, $0) } == [#"{"id":1}"#, "2", #""3""#, "[]", "true", "null"])
        #expect(try slices.members() == nil)
    }

    @Test("Text that is not JSON is refused, wherever the fault is", arguments: [
        "", " ", "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a" 1}"#, #"{"a":1,}"#, "[1,]", "[1 2]", "01", "1.", "1e", "-",
        "+1", ".5", "tru", "nul", "True", #""\x""#, #""\u12""#, "\"a\u{01}b\"", #"{a:1}"#, "[1]]", "{} {}", #"{"a":1}x"#,
        "[\"\\\"]", "NaN",
    ])
    func refusesInvalid(text: String) {
        let slices = JSONSlices(Data(text.utf8))
        #expect(slices.kind == nil)
        #expect(throws: JSONSlices.SyntaxError.self) { try slices.members() }
        #expect(throws: JSONSlices.SyntaxError.self) { try slices.elements() }
    }

    @Test("Nesting past 512 levels is refused, and a million levels cost no stack")
    func deepNesting() throws {
        let fine = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
        #expect(JSONSlices(Data(fine.utf8)).kind == .array)
        let deep = String(repeating: "[", count: 513) + "1" + String(repeating: "]", count: 513)
        #expect(JSONSlices(Data(deep.utf8)).kind == nil)
        let hostile = String(repeating: #"{"a":"#, count: 1_000_000)
        #expect(throws: JSONSlices.SyntaxError.self) { try JSONSlices(Data(hostile.utf8)).members() }
    }
}
