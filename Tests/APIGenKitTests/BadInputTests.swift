import APIGenKit
import APIManifest
import Foundation
import Testing

/// Bad manifests get `path:line:col: error: message` for every problem, and the generated folder
/// stays exactly as it was.
@Suite("Bad input", .ownThread)
struct BadInputTests {
    static let good = WritingTests.twoAPIs

    /// Generates from `good`, then replaces the API file with `bad`, runs again and returns the
    /// diagnostics with paths relative to the workspace root. Fails if the run changed any file.
    func diagnostics(for bad: [String: String]) throws -> [String] {
        let workspace = try TemporaryWorkspace(api: Self.good)
        defer { workspace.remove() }
        #expect(Generator.run(workspaceFile: workspace.workspaceFile, mode: .write).succeeded)
        let before = workspace.snapshot()
        #expect(before.count == 4)

        for (path, text) in bad { try workspace.write(path, text) }
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .write)
        #expect(!report.succeeded)
        let after = workspace.snapshot()
        #expect(after.mapValues(\.contents) == before.mapValues(\.contents))
        #expect(after.mapValues(\.modified) == before.mapValues(\.modified))
        let prefix = workspace.root.path + "/"
        return report.diagnostics.sorted.map { $0.description.replacingOccurrences(of: prefix, with: "") }
    }

    @Test("A YAML syntax error")
    func yamlSyntax() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": "apis:\n  Broken: [unclosed\n"])
        #expect(lines == ["apis/api.yaml:3:1: error: YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence"])
    }

    @Test("An unknown key, with a did-you-mean")
    func unknownKey() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            apis:
              Ping:
                method: GET
                path: /ping
                respone: Int
            """])
        #expect(lines == ["apis/api.yaml:5:5: error: unknown key 'respone' in API 'Ping' (did you mean 'response'?); expected one of: kind, description, method, path, baseURL, parameters, body, response, responses, responseHeaders, headers, timeout, frequency, retry, rateLimit, significantHeaders, tags, cache, invalidates, skipInterceptors, authenticated, sample"])
    }

    @Test("A parameter's example: checked against its type, a model's fields and enum values included")
    func exampleOfTheWrongType() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              Filter:
                fields:
                  role: Role
                  limit: Int
              Role:
                enum: [admin, member]
            apis:
              Find:
                method: GET
                path: /find/{id}
                parameters:
                  id: { type: Int, example: seven }
                  at: { type: Date, in: query, example: 1700000000, format: unixSeconds }
                  since: { type: "Date?", in: query, example: yesterday }
                response: Int
              Search:
                kind: jsonrpc
                url: /rpc
                method: search
                parameters:
                  filter: { type: Filter, example: { role: owner } }
                response: Int
            """])
        #expect(lines == [
            "apis/api.yaml:13:33: error: the example of parameter 'id' does not match 'Int': expected an integer (Int), found a string",
            "apis/api.yaml:15:51: error: the example of parameter 'since' does not match 'Date?': 'yesterday' is not an ISO 8601 date and time",
            "apis/api.yaml:22:40: error: the example of parameter 'filter' does not match 'Filter' at $.role: 'owner' is not a value of 'Role': it decodes as .unknown",
            "apis/api.yaml:22:40: error: the example of parameter 'filter' does not match 'Filter' at $.limit: required field 'limit' of 'Filter' is absent",
        ])
    }

    @Test("cache: only on calls without side effects whose reply is one value; its values checked")
    func cacheWhereItCannotApply() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            apis:
              CreateThing:
                method: POST
                path: /things
                cache: { ttl: 60 }
              Watch:
                method: GET
                path: /watch
                response: { events: String }
                cache: http
              Add:
                kind: jsonrpc
                url: /rpc
                method: add
                cache: { ttl: -1, scope: everyone, stale: 5 }
              Ping:
                method: GET
                path: /ping
                cache: forever
              Fetch:
                method: GET
                path: /fetch
                safe: true
            """])
        #expect(lines == [
            "apis/api.yaml:5:12: error: cache: a POST has side effects; only GET and HEAD replies are cached (a mutation can drop cached replies with 'invalidates:')",
            "apis/api.yaml:10:12: error: cache: a reply stream cannot be cached",
            "apis/api.yaml:15:12: error: cache: an RPC method may have side effects: mark it 'safe: true' if it has none",
            "apis/api.yaml:15:19: error: ttl is a number of seconds, at least 0, found -1",
            "apis/api.yaml:15:30: error: unknown cache scope 'everyone'; expected one of: credential, shared",
            "apis/api.yaml:15:40: error: unknown key 'stale' in cache; expected one of: ttl, staleWhileRevalidate, staleIfError, revalidate, scope",
            "apis/api.yaml:19:12: error: cache must be 'http' or a mapping of ttl, staleWhileRevalidate, staleIfError, revalidate and scope, found 'forever'",
            "apis/api.yaml:23:5: error: unknown key 'safe' in API 'Fetch'; expected one of: kind, description, method, path, baseURL, parameters, body, response, responses, responseHeaders, headers, timeout, frequency, retry, rateLimit, significantHeaders, tags, cache, invalidates, skipInterceptors, authenticated, sample",
        ])
    }

    @Test("A path parameter missing from the parameters")
    func missingPathParameter() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            apis:
              GetThing:
                method: GET
                path: /things/{thingID}/parts/{part}
                parameters:
                  part: Int
            """])
        #expect(lines == ["apis/api.yaml:4:19: error: path parameter '{thingID}' is not declared under 'parameters:'"])
    }

    @Test("An unknown type, with a did-you-mean")
    func unknownType() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              Thing:
                fields:
                  id: Int
            apis:
              GetThing:
                method: GET
                path: /thing
                response: "[Thng]"
            """])
        #expect(lines == [
            "apis/api.yaml:2:3: warning: type 'Thing' is not used by any API or model",
            "apis/api.yaml:9:15: error: unknown type 'Thng' (did you mean 'Thing'?); declare it under 'types:' or use one of: Bool, CalendarDate, Data, Date, Decimal, Double, File, Float, Int, Int32, Int64, JSON, String, URL, UUID",
        ])
    }

    @Test("A duplicate API name across two files")
    func duplicateAPI() throws {
        let lines = try diagnostics(for: ["apis/more.yaml": """
            apis:
              Ping:
                method: POST
                path: /ping
            """])
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("apis/more.yaml:2:3: error: API 'Ping' is declared twice; first declared at ") == true)
        #expect(lines.first?.hasSuffix("apis/api.yaml:12:3") == true)
    }

    @Test("Every error of a run is reported, across files, in file order")
    func allErrors() throws {
        let lines = try diagnostics(for: [
            "apis/api.yaml": """
                types:
                  Thing:
                    fields:
                      id: Integer
                apis:
                  GetThing:
                    method: GTE
                    path: /things/{id}
                    parameters:
                      id: { type: Int?, in: path }
                    response: Thing
                """,
            "apis/more.yaml": """
                apis:
                  Upload:
                    method: POST
                    path: /upload
                    body: form
                    timeout: -1
                    parameters:
                      thing: Thing
                """,
        ])
        #expect(lines == [
            "apis/api.yaml:4:11: error: unknown type 'Integer'; declare it under 'types:' or use one of: Bool, CalendarDate, Data, Date, Decimal, Double, File, Float, Int, Int32, Int64, JSON, String, URL, UUID",
            "apis/api.yaml:7:13: error: unknown HTTP method 'GTE' (did you mean 'GET'?); expected one of: GET, POST, PUT, PATCH, DELETE, HEAD",
            "apis/api.yaml:10:19: error: path parameter 'id' cannot be optional: the path needs a value",
            "apis/more.yaml:6:14: error: timeout must be greater than zero, found -1",
            "apis/more.yaml:8:14: error: form field 'thing' must be a scalar, an enum or a list of those, found 'Thing'; use 'body: json' for models",
        ])
    }

    @Test("Bodies that cannot be sent or received: on GET and HEAD, files outside multipart, a content type on JSON, a body twice, downloads and events over JSON-RPC")
    func impossibleBodies() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              Thing:
                fields:
                  id: Int
                  scan: File
            apis:
              GetThing:
                method: GET
                path: /things
                body: Thing
              Search:
                method: HEAD
                path: /search
                parameters:
                  text: { type: String, in: body }
              PostForm:
                method: POST
                path: /form
                body: form
                parameters:
                  scan: File
              PostJSON:
                method: POST
                path: /json
                parameters:
                  scans: "[File]"
              PutTyped:
                method: PUT
                path: /typed
                body: { type: Thing, contentType: text/plain }
              PutBytes:
                method: PUT
                path: /bytes
                body: { type: bytes, contentType: pdf }
              PutTwice:
                method: PUT
                path: /twice
                body: Thing
                parameters:
                  note: { type: String, in: body }
              PutEncoding:
                method: PUT
                path: /encoding
                body: { type: multipart }
              Fetch:
                method: GET
                path: /fetch
                parameters: { destination: String }
                response: file
              Count:
                kind: jsonrpc
                url: https://rpc.example.com
                method: count
                response: file
              Feed:
                kind: jsonrpc
                url: https://rpc.example.com
                method: feed
                response: { events: String }
              Lines:
                method: GET
                path: /lines
                response: { lines: String }
            """])
        #expect(lines == [
            "apis/api.yaml:5:13: error: 'File' is a file to upload and can only be a part of 'body: multipart'; to send a file as the whole body, use 'body: bytes'",
            "apis/api.yaml:10:11: error: a GET request has no body: 'body:' needs POST, PUT, PATCH or DELETE",
            "apis/api.yaml:15:33: error: parameter 'text' is 'in: body', but a HEAD request has no body; put it in the query",
            "apis/api.yaml:21:13: error: 'File' is a file to upload and can only be a part of 'body: multipart'; to send a file as the whole body, use 'body: bytes'",
            "apis/api.yaml:26:14: error: 'File' is a file to upload and can only be a part of 'body: multipart'; to send a file as the whole body, use 'body: bytes'",
            "apis/api.yaml:30:39: error: 'contentType:' is for 'type: bytes'; a body of type 'Thing' is sent as JSON",
            "apis/api.yaml:34:39: error: 'pdf' is not a content type such as 'image/png'",
            "apis/api.yaml:40:33: error: parameter 'note' is 'in: body', but the body is one value ('body:' names its type); put the parameter in the path, query or a header",
            "apis/api.yaml:44:19: error: 'multipart' is an encoding of body parameters: write 'body: multipart', not a 'type:'",
            "apis/api.yaml:48:19: error: a download's initializer takes 'destination:', the file to write; rename parameter 'destination' ('name:' keeps its name on the wire)",
            "apis/api.yaml:54:15: error: 'response: file' is for REST APIs; a jsonrpc reply is decoded from its protocol's envelope",
            "apis/api.yaml:59:17: error: 'response: { events: … }' is for REST APIs; a jsonrpc reply is decoded from its protocol's envelope",
            "apis/api.yaml:63:15: error: a streamed response is '{ events: Type }' (Server-Sent Events) or '{ jsonLines: Type }'; found 'lines'",
        ])
    }

    @Test("Statuses under 'responses:' (out of range, not 2xx/4xx/5xx, a type for 204, two success types, an error body that is no model) and response headers that cannot be read")
    func badResponses() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              Thing:
                fields:
                  id: Int
            apis:
              GetThing:
                method: GET
                path: /things
                response: Thing
                responses:
                  200: Thing
                  700: Thing
                  301: Thing
                  404: String
                  teapot: Thing
              PutThing:
                method: PUT
                path: /things
                responses:
                  204: Thing
                  201: none
                  202: Thing
                responseHeaders:
                  thing: Thing
                  bad: { type: String, name: "bad header" }
            """])
        #expect(lines == [
            "apis/api.yaml:11:7: error: the reply's type is declared twice: by 'response:' and by 200 under 'responses:'",
            "apis/api.yaml:12:7: error: a status code is 100 to 599, found 700",
            "apis/api.yaml:13:7: error: only 2xx, 4xx and 5xx statuses and 'default' can be declared, found 301",
            "apis/api.yaml:14:12: error: an error body is a model declared under 'types:' (it becomes a Swift Error), found 'String'",
            "apis/api.yaml:15:7: error: a key of 'responses:' is a status code such as 404, or 'default'; found 'teapot'",
            "apis/api.yaml:20:12: error: 204 has no body, so it has no type: write '204: none', not 'Thing'",
            "apis/api.yaml:22:7: error: a second success status 202: the API's reply type is declared once (at 201)",
            "apis/api.yaml:24:14: error: response header 'thing' must be a scalar or an enum (String, Int, Int32, Int64, Double, Float, Decimal, Bool, Date, CalendarDate, URL, UUID), found 'Thing'",
            "apis/api.yaml:25:34: error: 'bad header' is not a valid HTTP header name: use letters, digits and !#$%&'*+-.^_`|~",
        ])
    }

    @Test("A model that contains itself is an error, a list of itself is fine")
    func recursiveModel() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              Node:
                fields:
                  children: "[Node]"
                  next: Link?
              Link:
                fields:
                  target: Node
            apis:
              GetNode:
                method: GET
                path: /node
                response: Node
            """])
        // One cycle, one error, at the first field of the cycle from its alphabetically first type.
        #expect(lines == [
            "apis/api.yaml:8:7: error: type 'Link' contains itself through 'target.next'; a Swift struct cannot. Use a list ('[Link]') to break the cycle",
        ])
    }

    @Test("A chain of 10,000 models that closes on itself is one error, found in time linear in the chain", .timeLimit(.minutes(2)))
    func longValueCycle() throws {
        let count = 10_000
        var manifest = "types:\n"
        for index in 0..<count {
            manifest += "  M\(index):\n    fields:\n      next: M\((index + 1) % count)?\n      list: \"[M0]\"\n"
        }
        // Two more knots of their own: a type holding itself, and a pair.
        manifest += "  Solo:\n    fields:\n      again: Solo?\n"
        manifest += "  PairA:\n    fields:\n      b: PairB\n  PairB:\n    fields:\n      a: PairA?\n"
        manifest += "apis:\n  GetChain:\n    method: GET\n    path: /chain\n    response: M0\n"
        let lines = try diagnostics(for: ["apis/api.yaml": manifest])
        #expect(lines.count == 3)
        #expect(lines.contains("apis/api.yaml:4:7: error: type 'M0' contains itself through '\(Array(repeating: "next", count: count).joined(separator: "."))'; a Swift struct cannot. Use a list ('[M0]') to break the cycle"))
        #expect(lines.contains { $0.contains("error: type 'Solo' contains itself through 'again'; ") })
        #expect(lines.contains { $0.contains("error: type 'PairA' contains itself through 'b.a'; ") })
    }

    @Test("Names that become the same Swift name collide; bad base URLs and header names")
    func collisionsAndBadValues() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              user-profile:
                fields:
                  first-name: String
                  firstName: String
              UserProfile:
                enum: [a]
              Stock:
                enum: [in-stock, in stock, inStock]
            apis:
              Get-Thing:
                method: GET
                path: /thing
                baseURL: ftp://example.com
                parameters:
                  user id: { type: String, in: query }
                  userId: { type: String, in: query, name: uid }
                  trace: { type: String, in: header, name: "X Trace" }
                headers:
                  "Bad:Name": x
                response: user-profile
              GetThing:
                method: GET
                path: /thing2
            """])
        #expect(lines == [
            "apis/api.yaml:5:7: error: field 'firstName' becomes the Swift name 'firstName', which field 'first-name' at apis/api.yaml:4:7 already has",
            "apis/api.yaml:6:3: error: type 'UserProfile' becomes the Swift name 'UserProfile', which type 'user-profile' at apis/api.yaml:2:3 already has",
            "apis/api.yaml:6:3: warning: type 'UserProfile' is not used by any API or model",
            "apis/api.yaml:8:3: warning: type 'Stock' is not used by any API or model",
            "apis/api.yaml:9:22: error: enum case 'in stock' becomes the Swift name 'inStock', which enum case 'in-stock' at apis/api.yaml:9:12 already has",
            "apis/api.yaml:9:32: error: enum case 'inStock' becomes the Swift name 'inStock', which enum case 'in-stock' at apis/api.yaml:9:12 already has",
            "apis/api.yaml:14:14: error: baseURL 'ftp://example.com' must be an absolute http or https URL without a query",
            "apis/api.yaml:17:7: error: parameter 'userId' becomes the Swift name 'userId', which parameter 'user id' at apis/api.yaml:16:7 already has",
            "apis/api.yaml:18:48: error: 'X Trace' is not a valid HTTP header name: use letters, digits and !#$%&'*+-.^_`|~",
            "apis/api.yaml:20:7: error: 'Bad:Name' is not a valid HTTP header name: use letters, digits and !#$%&'*+-.^_`|~",
            "apis/api.yaml:22:3: error: API 'GetThing' becomes the Swift name 'GetThingAPI', which API 'Get-Thing' at apis/api.yaml:11:3 already has",
        ])
    }
}

extension BadInputTests {
    @Test("Headers that frame the message cannot be set by a manifest, as headers or as header parameters")
    func framingHeaders() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            apis:
              Send:
                method: POST
                path: /send
                parameters:
                  length: { type: Int, in: header, name: Content-Length }
                  encoding: { type: String, in: header, name: transfer-encoding }
                headers:
                  Host: evil.example
                  Connection: close
                  X-Fine: yes
            """])
        #expect(lines == [
            "apis/api.yaml:6:46: error: 'Content-Length' frames the message, and the transport writes it from the request itself; a manifest cannot set it",
            "apis/api.yaml:7:51: error: 'transfer-encoding' frames the message, and the transport writes it from the request itself; a manifest cannot set it",
            "apis/api.yaml:9:7: error: 'Host' frames the message, and the transport writes it from the request itself; a manifest cannot set it",
            "apis/api.yaml:10:7: error: 'Connection' frames the message, and the transport writes it from the request itself; a manifest cannot set it",
        ])
    }
    @Test("Policies: an unknown policy name, a negative rate, too many retries, a retried POST without the flag")
    func policyErrors() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            apis:
              List:
                method: GET
                path: /list
                frequency: coalese
                retry: { attempts: 11, delay: -1 }
                rateLimit: { calls: -5, per: 0, scope: planet }
              Create:
                method: POST
                path: /items
                retry: { attempts: 3 }
              Call:
                kind: jsonrpc
                url: /rpc
                method: call
                retry: { attempts: 2, nonIdempotent: true }
                sample: { status: 999, body: { a: [1, 2] } }
                tags: users
            """])
        #expect(lines == [
            "apis/api.yaml:5:16: error: unknown frequency policy 'coalese' (did you mean 'coalesce'?); expected one of: allow, reject, coalesce",
            "apis/api.yaml:6:24: error: attempts must be between 1 and 10, found 11",
            "apis/api.yaml:6:35: error: a retry delay cannot be negative, found -1.0",
            "apis/api.yaml:7:25: error: calls must be at least 1, found -5",
            "apis/api.yaml:7:34: error: per must be a positive number of seconds, found 0.0",
            "apis/api.yaml:7:44: error: unknown rate limit scope 'planet'; expected one of: api, host",
            "apis/api.yaml:11:12: error: POST is not idempotent: sending it again could repeat its effect. Add 'nonIdempotent: true' to 'retry:' if the server makes repeats safe",
            "apis/api.yaml:17:23: error: 999 is not an HTTP status code",
            "apis/api.yaml:18:11: error: tags must be a list, found a scalar",
        ])
    }

    @Test("Durations past a century or under a millisecond, however written, are errors at their node, not a crash")
    func hugeDurations() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            apis:
              List:
                method: GET
                path: /list
                timeout: 1e300
                retry: { attempts: 2, delay: 1e19, maxDelay: 4000000000 }
                rateLimit: { calls: 1, per: 1e308 }
              Get:
                method: GET
                path: /get
                timeout: 3153600000
              Tiny:
                method: GET
                path: /tiny
                timeout: 1e-300
            """])
        #expect(lines == [
            "apis/api.yaml:5:14: error: timeout must be at most 3153600000 seconds (a century), found 1e300",
            "apis/api.yaml:6:34: error: delay must be at most 3153600000 seconds (a century), found 1e19",
            "apis/api.yaml:6:50: error: maxDelay must be at most 3153600000 seconds (a century), found 4000000000",
            "apis/api.yaml:7:33: error: per must be at most 3153600000 seconds (a century), found 1e308",
            "apis/api.yaml:15:14: error: timeout must be at least 0.001 seconds (a millisecond), found 1e-300",
        ])
    }

    @Test("An API whose class a declared type already names is an error at the API")
    func classNamedByType() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              PingAPI: { fields: { ok: Bool } }
            apis:
              Ping: { method: GET, path: /ping, response: PingAPI }
            """])
        #expect(lines == ["apis/api.yaml:4:3: error: API 'Ping' would generate class 'PingAPI', which type 'PingAPI' already names"])
    }

    @Test("A type named as a Swift name generated code spells bare, or as a module it qualifies names with, is an error at the type; the runtime's type names are free")
    func typeShadowsSwift() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              Hashable: { fields: { a: Int } }
              Decoder: { enum: [x] }
              APIRuntime: { fields: { a: Int } }
              RetryPolicy: { fields: { a: Int } }
              BaseAPI: { enum: [x] }
            """])
        // (Each type also gets a warning: no API uses it.)
        #expect(lines.filter { $0.contains(": error: ") } == [
            "apis/api.yaml:2:3: error: 'Hashable' is a name generated code relies on; choose another",
            "apis/api.yaml:3:3: error: 'Decoder' is a name generated code relies on; choose another",
            "apis/api.yaml:4:3: error: 'APIRuntime' is a name generated code relies on; choose another",
        ])
    }

    @Test("Unions, defaults, date formats and the app's types: each mistake is an error at its node")
    func typeFeatures() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              Shape:
                oneOf: [Circle, Square]
                discriminator: kind
                mapping: { round: Circle, box: Box }
              Circle: { fields: { kind: String, radius: Double } }
              Square: { fields: { side: Double } }
              Either: { oneOf: ["[Int]", String] }
              Page:
                fields:
                  size: { type: Int, default: ten }
                  ratio: { type: Float, default: 1e39 }
                  note: { type: "String?", default: none }
                  since: { type: Int, format: unixSeconds }
                  state: { type: State, default: gone }
              State: { enum: [on, off] }
              Money: { swift: Mony }
              Loose: { enum: [a], additionalProperties: true }
            apis:
              Get: { method: GET, path: /get, response: Page }
              Draw: { method: GET, path: /draw, response: Shape }
              Pick: { method: GET, path: /pick, response: Either }
              Pay: { method: GET, path: /pay, response: Money }
            """, "Money.swift": "struct Money: Codable {}\n"])
        #expect(lines.filter { $0.contains(": error: ") } == [
            "apis/api.yaml:4:20: error: discriminator 'kind' of union 'Shape' is not a field of 'Square'; each alternative needs it",
            "apis/api.yaml:5:36: error: 'Box' in the mapping of union 'Shape' is not one of its alternatives",
            "apis/api.yaml:8:21: error: an alternative of union 'Either' is a declared type or a scalar, not '[Int]'; declare a model for it",
            "apis/api.yaml:11:35: error: default value 'ten' of field 'size' is not an Int",
            "apis/api.yaml:12:38: error: default value '1e39' of field 'ratio' is not a Float",
            "apis/api.yaml:13:41: error: 'default:' is for a number, text, Bool or enum, but field 'note' is 'String?'; a value with a default is not optional: write 'String'",
            "apis/api.yaml:14:35: error: 'format:' is how a Date is written, but field 'since' is 'Int'",
            "apis/api.yaml:15:38: error: default value 'gone' of field 'state' is not a value of 'State': on, off",
            "apis/api.yaml:17:19: error: type 'Money' is the app's 'Mony', which no Swift file under '..' declares (did you mean 'Money'?); declare it there (a typealias will do) or set 'sources:' in the workspace file",
            "apis/api.yaml:18:45: error: 'additionalProperties:' is for a model ('fields:'); type 'Loose' is an enum",
        ])
    }

    @Test("Enum declarations: a non-integer raw value of an integer enum, an unknown raw type, frozen: and type: on a model")
    func enumDeclarations() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            types:
              Level:
                type: Int
                enum: { low: 1, high: "2.5", huge: 99999999999999999999 }
              Small:
                type: Int32
                enum: { big: 3000000000 }
              Ratio:
                type: Float
                enum: [a]
              Box:
                fields: { a: Int }
                frozen: true
                type: Int
            """])
        #expect(lines.filter { $0.contains(": error: ") } == [
            "apis/api.yaml:4:27: error: raw value '2.5' of case 'high' is not an Int; type 'Level' is an integer enum",
            "apis/api.yaml:4:40: error: raw value '99999999999999999999' of case 'huge' is not an Int; type 'Level' is an integer enum",
            "apis/api.yaml:7:18: error: raw value '3000000000' of case 'big' is not an Int32; type 'Small' is an integer enum",
            "apis/api.yaml:9:11: error: 'Float' cannot be the raw value type of type 'Ratio'; use one of: String, Int, Int32, Int64",
            "apis/api.yaml:13:13: error: 'frozen:' is for an enum ('enum:'); type 'Box' is a model",
            "apis/api.yaml:14:11: error: 'type:' is for an enum ('enum:'); type 'Box' is a model",
        ])
    }

    @Test("Two generated files with one name, in any folders, or names that differ only in case, are an error at the second declaration")
    func clashingFileNames() throws {
        let lines = try diagnostics(for: [
            "apis/Users.yaml": """
                types:
                  Person: { fields: { a: Int } }
                apis:
                  A: { method: GET, path: /a, response: Person }
                """,
            "apis/users.yaml": """
                types:
                  Member: { fields: { b: Int } }
                apis:
                  B: { method: GET, path: /b, response: Member }
                """,
            "apis/billing/plans.yaml": """
                types:
                  Plan: { fields: { c: Int } }
                apis:
                  C: { method: GET, path: /c, response: Plan }
                """,
            "apis/billing.plans.yaml": """
                types:
                  Invoice: { fields: { d: Int } }
                apis:
                  D: { method: GET, path: /d, response: Invoice }
                """,
        ])
        #expect(lines == [
            "apis/billing/plans.yaml:2:3: error: the types of billing/plans.yaml would generate billing/plans/billing.plans.models.swift, and billing.plans/billing.plans.models.swift, the file of the types of billing.plans.yaml at apis/billing.plans.yaml:2:3, has that name too: a module's files need different names",
            "apis/users.yaml:2:3: error: the types of users.yaml would generate users/users.models.swift, whose name differs only in case from Users/Users.models.swift, the file of the types of Users.yaml at apis/Users.yaml:2:3; case-insensitive file systems would keep one",
        ])
    }

    @Test("RPC APIs: no method, no url, by-position written as a mapping, a list without byPosition, an unknown delegate")
    func rpcErrors() throws {
        let lines = try diagnostics(for: [
            "apis/api.yaml": """
                apis:
                  NoMethod:
                    kind: jsonrpc
                    url: /rpc
                  NoURL:
                    kind: jsonrpc
                    method: sum
                  Named:
                    kind: jsonrpc
                    url: /rpc
                    method: sum
                    params: byPosition
                    parameters:
                      a: Int
                  Listed:
                    kind: jsonrpc
                    url: /rpc
                    method: sum
                    parameters:
                      - a: Int
                  Legacy:
                    kind: rpc
                    delegate: CommandEnvelop
                    url: /legacy
                    method: members.count
                """,
            "Sources/CommandEnvelope.swift": "public struct CommandEnvelope: RPCDelegate {}\n",
        ])
        #expect(lines.count == 5)
        #expect(lines.dropLast() == [
            "apis/api.yaml:2:3: error: API 'NoMethod' needs 'method:', the name of the remote method",
            "apis/api.yaml:5:3: error: API 'NoURL' needs 'url:', the endpoint (an absolute URL, or a path joined to the base URL)",
            "apis/api.yaml:14:7: error: by-position parameters must be a list, so their order is explicit: write them as '- name: Type' items",
            "apis/api.yaml:20:7: error: a parameter list means by-position parameters: add 'params: byPosition', or write the parameters as a mapping",
        ])
        #expect(lines.last?.hasPrefix("apis/api.yaml:23:15: error: unknown delegate type 'CommandEnvelop' (did you mean 'CommandEnvelope'?): no type conforming to RPCDelegate is declared under ") == true)
    }

    @Test("RPC APIs: a notification with a response, a reserved envelope member, a parameter with 'in:'")
    func rpcShapeErrors() throws {
        let lines = try diagnostics(for: ["apis/api.yaml": """
            apis:
              Notify:
                kind: jsonrpc
                url: /rpc
                method: ping
                notification: yes
                response: Int
                envelope:
                  id: 7
                parameters:
                  x: { type: Int, in: query }
              Ping:
                kind: jsonrpc
                url: /rpc
                method: ping
                notification: true
                response: Int
                envelope:
                  id: 7
                  nested: { a: [1, "two", null] }
                parameters:
                  x: { type: Int, in: query }
                path: /nope
            """])
        #expect(lines == [
            "apis/api.yaml:6:19: error: notification must be true or false, found 'yes'",
            "apis/api.yaml:9:7: error: 'id' is a JSON-RPC member apigen writes itself; it cannot be an extra envelope field",
            "apis/api.yaml:11:27: error: RPC parameters travel in the envelope; remove 'in: query'",
            "apis/api.yaml:17:15: error: a notification gets no reply: remove 'response:' (or set 'notification: false')",
            "apis/api.yaml:19:7: error: 'id' is a JSON-RPC member apigen writes itself; it cannot be an extra envelope field",
            "apis/api.yaml:22:27: error: RPC parameters travel in the envelope; remove 'in: query'",
            "apis/api.yaml:23:5: error: unknown key 'path' in API 'Ping'; expected one of: kind, description, method, url, baseURL, parameters, params, response, errorData, notification, envelope, headers, timeout, frequency, retry, rateLimit, significantHeaders, tags, cache, invalidates, safe, skipInterceptors, authenticated, sample",
        ])
    }
}

/// The command line, as users and CI run it.
@Suite("apigen command", .ownThread)
struct CommandTests {
    @Test("Errors go to stderr as path:line:col, the exit status is 1, nothing is written")
    func failingRun() throws {
        let workspace = try TemporaryWorkspace(api: "apis:\n  Ping:\n    method: GET\n    path: /ping\n    bogus: 1\n")
        defer { workspace.remove() }
        let result = try APIGenBinary.run(["--workspace", "apis/workspace.yaml"], in: workspace.root)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("apis/api.yaml:5:5: error: unknown key 'bogus' in API 'Ping'"))
        #expect(result.stdout.isEmpty)
        #expect(workspace.snapshot().isEmpty)
    }

    @Test("A run prints a summary; a second run writes nothing; check passes, then fails once stale")
    func generateThenCheck() throws {
        let workspace = try TemporaryWorkspace(api: WritingTests.twoAPIs)
        defer { workspace.remove() }
        let first = try APIGenBinary.run([], in: workspace.root)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("apigen: 4 written, 0 unchanged, 0 removed in "))
        #expect(first.stdout.hasSuffix("→ Generated\n"))

        let second = try APIGenBinary.run(["--quiet"], in: workspace.root)
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty)

        let check = try APIGenBinary.run(["check"], in: workspace.root)
        #expect(check.status == 0)
        #expect(check.stdout == "apigen: generated code is up to date (4 files)\n")

        try workspace.write("apis/api.yaml", WritingTests.twoAPIs.replacingOccurrences(of: "/ping", with: "/pong"))
        let stale = try APIGenBinary.run(["check"], in: workspace.root)
        #expect(stale.status == 1)
        #expect(stale.stderr == "Generated/api/PingAPI.swift: stale: run 'swift run apigen' and commit the result\n")
    }
}
