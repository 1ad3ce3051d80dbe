import APIWireFormat
import Foundation
import Testing

@Suite("Base URLs and the JSON-RPC envelope")
struct WireFormatTests {
    @Test("A base URL's default port is its scheme's; user info, a query and a port past 65535 are refused")
    func baseURLs() throws {
        let grpcs = try #require(BaseURL("grpcs://Greeter.Example.com."))
        #expect(grpcs.port == 443 && grpcs.host == "greeter.example.com" && grpcs.path == "")
        #expect(try #require(BaseURL("grpc://localhost")).port == 80)
        let api = try #require(BaseURL("https://user:secret@api.example.com:8443/v1/"))
        #expect(api.authority == "api.example.com:8443" && api.path == "/v1")
        #expect(BaseURL("https://api.example.com/v1?x=1") == nil)
        #expect(BaseURL("https://api.example.com:70000") == nil)
        #expect(BaseURL.joined("https://h/v1/", "/users") == "https://h/v1/users")
        #expect(BaseURL.path(of: "https://h/v1?x") == "/v1")
    }

    @Test("Requests, results and errors: parameters and results byte for byte, extra members after the id")
    func envelope() throws {
        let request = JSONRPCEnvelope.request(method: "sum", params: Data("[1.000000000000000001]".utf8), id: 7, extra: [(name: "auth", value: "t")])
        #expect(String(decoding: request, as: UTF8.self) == #"{"jsonrpc":"2.0","method":"sum","params":[1.000000000000000001],"id":7,"auth":"t"}"#)
        let notification = JSONRPCEnvelope.request(method: "log", params: nil, id: nil)
        #expect(String(decoding: notification, as: UTF8.self) == #"{"jsonrpc":"2.0","method":"log"}"#)
        #expect(String(decoding: JSONRPCEnvelope.result(Data("12345678901234567890".utf8), id: "\"a\""), as: UTF8.self) == #"{"jsonrpc":"2.0","result":12345678901234567890,"id":"a"}"#)
        let error = JSONRPCEnvelope.error(code: -32601, message: "Method \"x\" not found", id: JSONRPCEnvelope.idText(nil))
        #expect(String(decoding: error, as: UTF8.self) == #"{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method \"x\" not found"},"id":null}"#)
        #expect(JSONValue.parse(error) != nil)
    }

    @Test("JSON values: a bounded depth, text as a URL takes it, JSON with sorted members")
    func values() throws {
        let deep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        #expect(JSONValue.parse(Data(deep.utf8)) == nil)
        #expect(JSONValue.parse(Data(deep.dropFirst().dropLast().utf8)) != nil)
        let value = try #require(JSONValue.parse(Data(#"{"b":[1,2.5,"x/y"],"a":null,"c":true}"#.utf8)))
        #expect(value.json == #"{"a":null,"b":[1,2.5,"x/y"],"c":true}"#)
        #expect(JSONValue.number(7).text == "7" && JSONValue.bool(false).text == "false" && JSONValue.null.text == nil)
    }
}
