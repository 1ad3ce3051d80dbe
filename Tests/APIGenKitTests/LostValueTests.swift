import APIGenKit
import Testing

/// Manifests whose generated code would not compile, or would send or keep a value other than
/// the one written: each an error at its node. What compiles after all (fields named `Type`, a
/// Decimal default past Int's range) is in the hostile corpus, which the HostileClient target
/// compiles.
@Suite("Manifests that would not compile or would lose a value", .ownThread)
struct LostValueTests {
    @Test("Names the generated code needs for itself: a field CodingKeys, a parameter Self or APIRuntime, a case allCases")
    func reservedNames() throws {
        let lines = try BadInputTests().diagnostics(for: ["apis/api.yaml": """
            types:
              Thing:
                fields:
                  CodingKeys: Int
                  Type: Int
              Kind:
                enum: [allCases, Type]
            apis:
              Get:
                method: GET
                path: /get
                parameters:
                  Self: { type: Int, in: query }
                  APIRuntime: { type: Int, in: query }
                  kind: { type: Kind, in: query }
                response: Thing
              Call:
                kind: jsonrpc
                url: /rpc
                method: call
                parameters:
                  Self: Int
            """])
        #expect(lines == [
            "apis/api.yaml:4:7: error: field 'CodingKeys' cannot have the Swift name 'CodingKeys': Codable names the type's coding keys so; give the field another name and keep its JSON key with `json: CodingKeys`",
            "apis/api.yaml:7:12: error: enum case 'allCases' cannot have the Swift name 'allCases': CaseIterable names the list of an enum's cases so; name the case otherwise and keep its value: `enum: { everyCase: allCases }`",
            "apis/api.yaml:13:7: error: parameter 'Self' cannot have the Swift name 'Self': the initializer names the API's own type so; give the parameter another name and keep its wire name with `name: Self`",
            "apis/api.yaml:14:7: error: parameter 'APIRuntime' cannot have the Swift name 'APIRuntime': the initializer reaches the APIRuntime module through this name; give the parameter another name and keep its wire name with `name: APIRuntime`",
            "apis/api.yaml:22:7: error: parameter 'Self' cannot have the Swift name 'Self': the initializer names the API's own type so; give the parameter another name and keep its wire name with `name: Self`",
        ])
    }

    @Test("A parameter named as a type the class's static members name (its class with a sample, its delegate, an error body), or selfValue beside self, is an error at it")
    func namesTheClassUses() throws {
        let lines = try BadInputTests().diagnostics(for: ["apis/api.yaml": """
            apis:
              Find:
                method: GET
                path: /find
                parameters:
                  FindAPI: { type: Int, in: query }
                  self: { type: Int, in: query }
                  selfValue: { type: Int, in: query }
                sample: { status: 200 }
                response: none
              Count:
                kind: rpc
                delegate: CommandEnvelope
                url: /rpc
                method: count
                parameters:
                  CommandEnvelope: Int
              Refuse:
                method: GET
                path: /refuse
                parameters:
                  Problem: { type: Int, in: query }
                responses: { 422: Problem }
                response: none
              Plain:
                method: GET
                path: /plain
                parameters:
                  PlainAPI: { type: Int, in: query }
                response: none
            types:
              Problem:
                fields:
                  message: String
            """])
        #expect(lines.contains("apis/api.yaml:6:7: error: parameter 'FindAPI' cannot have the Swift name 'FindAPI': the API's sample names its class so; give the parameter another name and keep its wire name with `name: FindAPI`"))
        #expect(lines.contains("apis/api.yaml:8:7: error: parameter 'selfValue' becomes the Swift name 'selfValue', which parameter 'self' at apis/api.yaml:7:7 already has"))
        #expect(lines.contains { $0.hasPrefix("apis/api.yaml:17:7: error: parameter 'CommandEnvelope' cannot have the Swift name 'CommandEnvelope': the API's definition makes its delegate through this name") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("apis/api.yaml:22:7: error: parameter 'Problem' cannot have the Swift name 'Problem': the API's definition names its error body's type so") }, "\(lines)")
        // Without a sample, nothing in the class names the class: the parameter may.
        #expect(!lines.contains { $0.contains("'PlainAPI'") }, "\(lines)")
    }

    @Test("Two values under one wire name: body fields, query items, headers in any case, a header parameter and a fixed header, RPC params")
    func oneWireNameTwice() throws {
        let lines = try BadInputTests().diagnostics(for: ["apis/api.yaml": """
            apis:
              Send:
                method: POST
                path: /send/{id}
                headers:
                  X-Trace: fixed
                parameters:
                  id: Int
                  one: { type: Int, in: body, name: x }
                  two: { type: Int, in: body, name: x }
                  first: { type: Int, in: query, name: q }
                  second: { type: Int, in: query, name: q }
                  upper: { type: Int, in: header, name: X-Account }
                  lower: { type: Int, in: header, name: x-account }
                  trace: { type: String, in: header, name: x-trace }
                  y: { type: Int, in: query }
                  alsoY: { type: Int, in: body, name: y }
              Call:
                kind: jsonrpc
                url: /rpc
                method: call
                parameters:
                  a: Int
                  b: { type: Int, name: a }
            """])
        #expect(lines == [
            "apis/api.yaml:10:41: error: parameter 'two' sends the body field 'x', which parameter 'one' at apis/api.yaml:9:41 already sends: one of the two values would be lost",
            "apis/api.yaml:12:45: error: parameter 'second' sends the query item 'q', which parameter 'first' at apis/api.yaml:11:44 already sends: one of the two values would be lost",
            "apis/api.yaml:14:45: error: parameter 'lower' sends the header 'x-account', which parameter 'upper' at apis/api.yaml:13:45 already sends (header names ignore case): one of the two values would be lost",
            "apis/api.yaml:15:48: error: parameter 'trace' sends the header 'x-trace', which header 'X-Trace' at apis/api.yaml:6:7 already sends (header names ignore case): one of the two values would be lost",
            "apis/api.yaml:24:29: error: parameter 'b' sends the body field 'a', which parameter 'a' at apis/api.yaml:23:7 already sends: one of the two values would be lost",
        ])
    }

    @Test("Base URLs with a password, a fragment, a port past 65535 or a control character; the URL is not repeated")
    func unfitBaseURLs() throws {
        let lines = try BadInputTests().diagnostics(for: [
            "apis/workspace.yaml": "module: TestClient\noutput: ../Generated\ndefaults:\n  baseURL: \"https://example.com/v1#top\"\n",
            "apis/api.yaml": """
                apis:
                  A:
                    method: GET
                    path: /a
                    baseURL: "https://admin:secret@example.com"
                  B:
                    method: GET
                    path: /b
                    baseURL: "https://example.com:70000/v1"
                  C:
                    method: GET
                    path: /c
                    baseURL: "https://[::1]:99999999999999999999"
                  D:
                    method: GET
                    path: /d
                    baseURL: "https://example.com/v1\\r\\nX-Injected: 1"
                  E:
                    method: GET
                    path: /e
                    baseURL: "https://[::1]:8443/v1"
                """,
        ])
        #expect(lines == [
            "apis/api.yaml:5:14: error: baseURL carries a user name or password ('user:password@'): credentials in a URL end up in logs; send them with an authentication interceptor or a header",
            "apis/api.yaml:9:14: error: baseURL has the port '70000'; a port is a number from 1 to 65535",
            "apis/api.yaml:13:14: error: baseURL has the port '99999999999999999999'; a port is a number from 1 to 65535",
            "apis/api.yaml:17:14: error: baseURL contains a control character (a line break, a tab): it would split or corrupt the request line",
            "apis/workspace.yaml:4:12: error: baseURL has a '#fragment', which never reaches the server: every call would go to the base path",
        ])
        #expect(!lines.joined().contains("secret"))
    }

    @Test("Durations under a millisecond that would become zero, and a Decimal default Decimal cannot hold")
    func valuesThatWouldChange() throws {
        let lines = try BadInputTests().diagnostics(for: ["apis/api.yaml": """
            apis:
              List:
                method: GET
                path: /list
                retry: { attempts: 2, delay: 0.0004, maxDelay: 0 }
                rateLimit: { calls: 1, per: 0.0009 }
                sample: { delay: 1e-5 }
                parameters:
                  digits: { type: Decimal, default: "1234567890123456789012345678901234567891" }
                  large: { type: Decimal, default: "1\(String(repeating: "0", count: 170))" }
                  fine: { type: Decimal, default: "0.00000000000000000000000000000000000012345" }
            """])
        #expect(lines == [
            "apis/api.yaml:5:34: error: delay must be 0 or at least 0.001 seconds (a millisecond), found 0.0004: generated code counts whole milliseconds, so it would become 0",
            "apis/api.yaml:6:33: error: per must be at least 0.001 seconds (a millisecond), found 0.0009: generated code counts whole milliseconds, so it would become 0",
            "apis/api.yaml:7:22: error: delay must be 0 or at least 0.001 seconds (a millisecond), found 1e-5: generated code counts whole milliseconds, so it would become 0",
            "apis/api.yaml:9:41: error: default value '1234567890123456789012345678901234567891' of parameter 'digits' is not a Decimal: it keeps at most 38 significant digits, with exponents from -128 to 127",
            "apis/api.yaml:10:40: error: default value '1\(String(repeating: "0", count: 170))' of parameter 'large' is not a Decimal: it keeps at most 38 significant digits, with exponents from -128 to 127",
        ])
    }
}
