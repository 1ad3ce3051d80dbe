import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// The generated JSON-RPC APIs against a JSON-RPC 2.0 server on loopback, through every example of
/// section 7 of the specification, and malformed replies.
@Suite("JSON-RPC 2.0 on a loopback server")
struct JSONRPCTests {
    /// The request objects the server received, parsed.
    func envelopes(_ server: LoopbackServer) -> [JSONValue] {
        server.requests.compactMap { JSONValue.parse($0.body) }
    }

    @Test("rpc call with positional parameters (spec example 1)")
    func positional() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let first = try await SubtractAPI(minuend: 42, subtrahend: 23).using(manager).start()
            let second = try await SubtractAPI(minuend: 23, subtrahend: 42).using(manager).start()
            #expect(first == 19)
            #expect(second == -19)

            let requests = server.requests
            #expect(requests.map(\.method) == [.post, .post])
            #expect(requests.map(\.target) == ["/v1/jsonrpc", "/v1/jsonrpc"])
            #expect(requests[0].headers[.contentType] == "application/json")
            #expect(requests[0].bodyText == #"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#)
            #expect(requests[1].bodyText == #"{"jsonrpc":"2.0","method":"subtract","params":[23,42],"id":2}"#)
        }
    }

    @Test("rpc call with named parameters (spec example 2)")
    func named() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let result = try await SubtractNamed(minuend: 42, subtrahend: 23, manager: manager)
            #expect(result == 19)
            let envelope = try #require(envelopes(server).first)
            #expect(envelope["params"] == .object(["minuend": .integer(42), "subtrahend": .integer(23)]))
            #expect(envelope["method"] == .string("subtract"))
        }
    }

    func SubtractNamed(minuend: Int, subtrahend: Int, manager: APIManager) async throws -> Int {
        try await SubtractNamedAPI(minuend: minuend, subtrahend: subtrahend).using(manager).start()
    }

    @Test("A notification has no id and awaits no reply (spec example 3)")
    func notification() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let result = try await UpdateAPI(a: 1, b: 2, c: 3, d: 4, e: 5).using(manager).start()
            #expect(result == NoContent())
            #expect(server.requests.first?.bodyText == #"{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}"#)
        }
    }

    @Test("A notification whose HTTP request fails reports the status; its body is never read")
    func notificationHTTPError() async throws {
        try await withServer({ _ in .text("<html>down</html>", status: .serviceUnavailable) }) { _, manager in
            let error = await expectAPIError { try await NotifyHelloAPI(value: 1).using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 503, body: Data("<html>down</html>".utf8)))
        }
        try await withServer({ _ in .text("anything at all", status: .ok) }) { _, manager in
            let result = try await NotifyHelloAPI(value: 1).using(manager).start()
            #expect(result == NoContent())
        }
    }

    @Test("rpc call of a non-existent method (spec example 4) is a typed error with the standard code")
    func methodNotFound() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let error = await expectAPIError { try await FoobarAPI().using(manager).start() }
            #expect(error?.api == "Foobar")
            #expect(error?.reason == .rpcError(code: -32601, message: "Method not found", data: nil))
            #expect(error?.jsonRPCCode == .methodNotFound)
            #expect(error?.jsonRPCCode?.description == "-32601 (method not found)")
            // No params member when the method takes none.
            #expect(server.requests.first?.bodyText == #"{"jsonrpc":"2.0","method":"foobar","id":1}"#)
        }
    }

    @Test("Parse error and invalid request replies with a null id (spec examples 5 and 6)")
    func nullIDErrors() async throws {
        for (reply, code) in [
            (#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#, JSONRPCErrorCode.parseError),
            (#"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#, .invalidRequest),
        ] {
            try await withServer({ _ in .json(reply) }) { _, manager in
                let error = await expectAPIError { try await SubtractAPI(minuend: 1, subtrahend: 2).using(manager).start() }
                #expect(error?.jsonRPCCode == code)
            }
        }
    }

    @Test("An error object's data is kept; -32000 to -32099 are server errors")
    func errorData() async throws {
        let reply = #"{"jsonrpc": "2.0", "error": {"code": -32042, "message": "busy", "data": {"retry": 3}}, "id": 1}"#
        try await withServer({ _ in .json(reply) }) { _, manager in
            let error = await expectAPIError { try await SubtractAPI(minuend: 1, subtrahend: 2).using(manager).start() }
            guard case .rpcError(let code, let message, let data)? = error?.reason else {
                Issue.record("expected an rpcError, got \(String(describing: error))")
                return
            }
            #expect(code == -32042)
            #expect(message == "busy")
            #expect(data.flatMap(JSONValue.parse) == .object(["retry": .integer(3)]))
            #expect(error?.jsonRPCCode?.isServerError == true)
        }
    }

    @Test("Extra envelope fields, an absolute endpoint URL and by-name Double parameters")
    func envelopeFields() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let quarter = try await DivideAPI(dividend: 1, divisor: 4).using(manager).start()
            #expect(quarter == 0.25)
            let request = try #require(server.requests.first)
            #expect(request.target == "/v2/jsonrpc")
            #expect(request.bodyText == #"{"jsonrpc":"2.0","method":"math.divide","params":{"dividend":1,"divisor":4},"id":1,"apiVersion":"2","trace":true}"#)

            let error = await expectAPIError { try await DivideAPI(dividend: 1, divisor: 0).using(manager).start() }
            #expect(error?.reason == .rpcError(code: -32000, message: "division by zero", data: Data(#"{"dividend":1}"#.utf8)))
            // `errorData: DivisionError`: the error object's data, typed.
            #expect(error?.serverError as? DivisionError == DivisionError(dividend: 1))
        }
    }

    @Test("A result of mixed JSON values decodes as [JSONValue]")
    func anyJSON() async throws {
        try await withServer(JSONRPCServer.handle) { _, manager in
            let data = try await GetDataAPI().using(manager).start()
            #expect(data == [.string("hello"), .integer(5)])
        }
    }

    @Test("Malformed replies are typed errors naming the API, never a crash or a hang", arguments: [
        (#"{"jsonrpc": "2.0", "result": 19"#, 200, "invalidResponse: the reply is not JSON"),
        (#"{"jsonrpc": "2.0", "result": 19, "id": 99}"#, 200, "invalidResponse: the reply's id (a number) does not match the request's id 1"),
        (#"{"result": 19, "id": 1}"#, 200, #"invalidResponse: the reply's "jsonrpc" member must be "2.0", found none"#),
        (#"{"jsonrpc": "1.0", "result": 19, "id": 1}"#, 200, #"invalidResponse: the reply's "jsonrpc" member must be "2.0", found a string"#),
        (#"{"jsonrpc": "2.0", "result": 19, "error": {"code": 1, "message": "x"}, "id": 1}"#, 200, #"invalidResponse: the reply has both "result" and "error""#),
        (#"{"jsonrpc": "2.0", "id": 1}"#, 200, #"invalidResponse: the reply has neither "result" nor "error""#),
        (#"{"jsonrpc": "2.0", "error": {"code": "x"}, "id": 1}"#, 200, #"invalidResponse: the error object needs an integer "code" and a string "message""#),
        (#"[{"jsonrpc": "2.0", "result": 19, "id": 1}]"#, 200, "invalidResponse: expected a JSON-RPC response object, found an array"),
        ("<html><body>502 Bad Gateway</body></html>", 502, "httpStatus: 502"),
        ("<html><body>maintenance</body></html>", 200, "invalidResponse: the reply is not JSON (37 bytes)"),
        ("", 200, "invalidResponse: the reply is empty"),
        (#"{"jsonrpc": "2.0", "result": "nineteen", "id": 1}"#, 200, "decoding"),
    ])
    func malformedReplies(body: String, status: Int, expected: String) async throws {
        try await withServer({ _ in .text(body, status: HTTPResponse.Status(code: status), contentType: "application/json") }) { _, manager in
            let error = try #require(await expectAPIError { try await SubtractAPI(minuend: 42, subtrahend: 23).using(manager).start() })
            #expect(error.api == "Subtract")
            let summary: String = switch error.reason {
            case .invalidResponse(let message): "invalidResponse: " + message
            case .httpStatus(let code, _): "httpStatus: \(code)"
            case .decoding: "decoding"
            default: "\(error.reason)"
            }
            #expect(summary.hasPrefix(expected), "\(summary)")
        }
    }

    @Test("Ids are unique across concurrent calls, and each reply reaches its own call")
    func concurrentIDs() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for n in 0..<20 {
                    group.addTask { (n, try await SubtractAPI(minuend: n, subtrahend: 1).using(manager).start()) }
                }
                for try await (n, result) in group { #expect(result == n - 1) }
            }
            let ids = envelopes(server).compactMap { $0["id"] }
            #expect(Set(ids).count == 20)
        }
    }
}

@Suite("JSON-RPC 2.0 batches on a loopback server")
struct JSONRPCBatchTests {
    @Test("rpc call batch (spec example 11): results matched by id in any order, one error does not fail the others")
    func mixedBatch() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(SumAPI(a: 1, b: 2, c: 4))
            let hello = batch.add(NotifyHelloAPI(value: 7))
            let difference = batch.add(SubtractAPI(minuend: 42, subtrahend: 23))
            let missing = batch.add(FoobarAPI())
            let data = batch.add(GetDataAPI())
            try await batch.send()

            #expect(try sum.get() == 7)
            #expect(try hello.get() == NoContent())
            #expect(try difference.get() == 19)
            #expect(missing.result.failureValue?.jsonRPCCode == .methodNotFound)
            #expect(try data.get() == [.string("hello"), .integer(5)])

            // One HTTP request carrying an array of five envelopes, the notification without an id.
            #expect(server.requests.count == 1)
            guard case .array(let envelopes)? = JSONValue.parse(server.requests[0].body) else {
                Issue.record("expected an array body")
                return
            }
            #expect(envelopes.map { $0["method"] } == ["sum", "notify_hello", "subtract", "foobar", "get_data"].map(JSONValue.string))
            #expect(envelopes[1]["id"] == nil)
            #expect(Set(envelopes.compactMap { $0["id"] }).count == 4)
        }
    }

    @Test("rpc call batch of notifications only (spec example 12): nothing comes back, nothing is awaited")
    func notificationsOnly() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let batch = JSONRPCBatch(manager: manager)
            let first = batch.add(NotifyHelloAPI(value: 1))
            let second = batch.add(UpdateAPI(a: 1, b: 2, c: 3, d: 4, e: 5))
            try await batch.send()
            #expect(try first.get() == NoContent())
            #expect(try second.get() == NoContent())
            #expect(server.requests.first?.bodyText == #"[{"jsonrpc":"2.0","method":"notify_hello","params":[1]},{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}]"#)
        }
    }

    @Test("A batch answered with one error object (spec example 7) fails every call with it, and send throws")
    func singleErrorForBatch() async throws {
        let reply = #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#
        try await withServer({ _ in .json(reply) }) { _, manager in
            let batch = JSONRPCBatch(manager: manager)
            let a = batch.add(SumAPI(a: 1, b: 2, c: 3))
            let b = batch.add(SubtractAPI(minuend: 1, subtrahend: 1))
            let error = await expectAPIError { try await batch.send() }
            #expect(error?.jsonRPCCode == .parseError)
            #expect(a.result.failureValue?.jsonRPCCode == .parseError)
            #expect(b.result.failureValue?.api == "Subtract")
        }
    }

    @Test("A batch answered with one object under an HTTP error status: an error object fails every call with it, a result fails them with the status", arguments: [
        (#"{"jsonrpc": "2.0", "error": {"code": -32603, "message": "Internal error"}, "id": null}"#, "rpcError -32603"),
        (#"{"jsonrpc": "2.0", "result": 6, "id": null}"#, "httpStatus 503"),
    ])
    func singleObjectUnderErrorStatus(reply: String, expected: String) async throws {
        try await withServer({ _ in .json(reply, status: .serviceUnavailable) }) { _, manager in
            let batch = JSONRPCBatch(manager: manager)
            let a = batch.add(SumAPI(a: 1, b: 2, c: 3))
            let b = batch.add(SubtractAPI(minuend: 1, subtrahend: 1))
            let error = await expectAPIError { try await batch.send() }
            for failure in [error, a.result.failureValue, b.result.failureValue] {
                let summary = switch failure?.reason {
                case .rpcError(let code, _, _)?: "rpcError \(code)"
                case .httpStatus(let code, _)?: "httpStatus \(code)"
                default: "\(String(describing: failure))"
                }
                #expect(summary == expected)
            }
            #expect(b.result.failureValue?.api == "Subtract")
        }
    }

    @Test("Replies with null ids (spec examples 9 and 10) go to the calls left without a reply")
    func nullIDsInBatch() async throws {
        try await withServer({ request in
            // Answer the first call properly and the second with an invalid-request error of null id.
            guard case .array(let calls)? = JSONValue.parse(request.body), case .integer(let id)? = calls[0]["id"] else { return .json("[]") }
            return .json(#"[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}, {"jsonrpc": "2.0", "result": 6, "id": \#(id)}]"#)
        }) { _, manager in
            let batch = JSONRPCBatch(manager: manager)
            let a = batch.add(SumAPI(a: 1, b: 2, c: 3))
            let b = batch.add(SubtractAPI(minuend: 1, subtrahend: 1))
            try await batch.send()
            #expect(try a.get() == 6)
            #expect(b.result.failureValue?.jsonRPCCode == .invalidRequest)
        }
    }

    @Test("A call the reply leaves out fails alone; an empty batch is refused before sending")
    func missingReplyAndEmptyBatch() async throws {
        try await withServer({ request in
            guard case .array(let calls)? = JSONValue.parse(request.body), case .integer(let id)? = calls[0]["id"] else { return .json("[]") }
            return .json(#"[{"jsonrpc": "2.0", "result": 6, "id": \#(id)}]"#)
        }) { server, manager in
            let batch = JSONRPCBatch(manager: manager)
            let a = batch.add(SumAPI(a: 1, b: 2, c: 3))
            let b = batch.add(SubtractAPI(minuend: 1, subtrahend: 1))
            try await batch.send()
            #expect(try a.get() == 6)
            guard case .invalidResponse(let message)? = b.result.failureValue?.reason else {
                Issue.record("expected an invalid response, got \(b.result)")
                return
            }
            #expect(message.hasPrefix("the batch reply has no response with id"))

            let empty = await expectAPIError { try await JSONRPCBatch(manager: manager).send() }
            #expect(empty?.reason == .invalidRequest(message: "a batch needs at least one call"))
            #expect(server.requests.count == 1)
        }
    }

    @Test("Two responses with one id: neither is taken, and the call fails; the others get theirs")
    func repeatedID() async throws {
        try await withServer({ request in
            guard case .array(let calls)? = JSONValue.parse(request.body), case .integer(let a)? = calls[0]["id"], case .integer(let b)? = calls[1]["id"] else { return .json("[]") }
            return .json(#"[{"jsonrpc": "2.0", "result": 6, "id": \#(a)}, {"jsonrpc": "2.0", "result": 0, "id": \#(b)}, {"jsonrpc": "2.0", "result": 7, "id": \#(a)}]"#)
        }) { _, manager in
            let batch = JSONRPCBatch(manager: manager)
            let a = batch.add(SumAPI(a: 1, b: 2, c: 3))
            let b = batch.add(SubtractAPI(minuend: 1, subtrahend: 1))
            try await batch.send()
            guard case .invalidResponse(let message)? = a.result.failureValue?.reason else {
                Issue.record("expected an invalid response, got \(a.result)")
                return
            }
            #expect(message.hasPrefix("the batch reply has more than one response with id"))
            #expect(try b.get() == 0)
        }
    }

    @Test("Under an HTTP error status, results are not taken (each call fails with the status) but error objects are")
    func errorStatus() async throws {
        try await withServer({ request in
            guard case .array(let calls)? = JSONValue.parse(request.body) else {
                // A single call, answered with a result and a 500.
                let id = JSONValue.parse(request.body)?["id"].map { "\($0)" } ?? "null"
                return .json(#"{"jsonrpc": "2.0", "result": 6, "id": \#(id)}"#, status: .internalServerError)
            }
            guard case .integer(let a)? = calls[0]["id"], case .integer(let b)? = calls[1]["id"] else { return .json("[]") }
            return .json(
                #"[{"jsonrpc": "2.0", "result": 6, "id": \#(a)}, {"jsonrpc": "2.0", "error": {"code": -32000, "message": "overloaded"}, "id": \#(b)}]"#,
                status: .internalServerError
            )
        }) { _, manager in
            let batch = JSONRPCBatch(manager: manager)
            let a = batch.add(SumAPI(a: 1, b: 2, c: 3))
            let b = batch.add(SubtractAPI(minuend: 1, subtrahend: 1))
            try await batch.send()
            guard case .httpStatus(500, _)? = a.result.failureValue?.reason else {
                Issue.record("expected HTTP 500, got \(a.result)")
                return
            }
            #expect(b.result.failureValue?.reason == .rpcError(code: -32000, message: "overloaded", data: nil))

            let single = await expectAPIError { _ = try await SumAPI(a: 1, b: 2, c: 3).using(manager).start() }
            guard case .httpStatus(500, _)? = single?.reason else {
                Issue.record("expected HTTP 500, got \(String(describing: single))")
                return
            }
        }
    }

    @Test("A batch goes to one endpoint: a call for another fails alone")
    func oneEndpoint() async throws {
        try await withServer(JSONRPCServer.handle) { _, manager in
            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(SumAPI(a: 1, b: 1, c: 1))
            let divide = batch.add(DivideAPI(dividend: 1, divisor: 2))
            try await batch.send()
            #expect(try sum.get() == 3)
            guard case .invalidRequest(let message)? = divide.result.failureValue?.reason else {
                Issue.record("expected an invalid request, got \(divide.result)")
                return
            }
            #expect(message.hasPrefix("a batch goes to one endpoint"))
        }
    }
}

@Suite("JSON-RPC batches: settings and cancellation")
struct JSONRPCBatchSettingsTests {
    @Test("A member whose headers differ from the first member's fails alone; the rest are sent")
    func differentHeadersRefused() async throws {
        try await withServer(JSONRPCServer.handle) { server, manager in
            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(SumAPI(a: 1, b: 2, c: 4))
            let other = SubtractAPI(minuend: 42, subtrahend: 23)
            other.options.headers = [(name: "X-Account", value: "b")]
            let difference = batch.add(other)
            try await batch.send()
            #expect(try sum.get() == 7)
            guard case .invalidRequest(let message)? = difference.result.failureValue?.reason else {
                Issue.record("expected an invalid request, got \(difference.result)")
                return
            }
            #expect(message.contains("one set of headers"))
            #expect(server.requests.count == 1)
        }
    }

    @Test("A batch is retried only when every member's policy allows it")
    func retryNeedsEveryMember() async throws {
        let attempts = NIOLockedValueBox(0)
        try await withServer(configure: {
            $0.retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10))
        }, { request in
            attempts.withLockedValue { $0 += 1 }
            return .json("{}", status: .serviceUnavailable)
        }) { _, manager in
            // JSON-RPC methods are not idempotent unless declared so: no member allows a retry.
            let batch = JSONRPCBatch(manager: manager)
            batch.add(SumAPI(a: 1, b: 2, c: 4))
            batch.add(SubtractAPI(minuend: 1, subtrahend: 1))
            _ = await expectAPIError { try await batch.send() }
            #expect(attempts.withLockedValue { $0 } == 1)
        }
    }

    @Test("cancel(tag:) with a member's tag cancels the batch on the wire")
    func cancelBatchByTag() async throws {
        try await withServer({ _ in
            try await Task.sleep(for: .seconds(60))
            return .json("[]")
        }) { server, manager in
            let batch = JSONRPCBatch(manager: manager)
            let sum = SumAPI(a: 1, b: 2, c: 4)
            sum.options.tags = ["math"]
            batch.add(sum)
            let clock = ContinuousClock()
            let start = clock.now
            let sending = Task { try await batch.send() }
            try await waitUntil { server.requests.count == 1 }
            #expect(manager.cancel(tag: "math") == 1)
            let error = await expectAPIError { try await sending.value }
            #expect(error?.reason == .cancelled)
            // Long before the server's answer: the batch stopped waiting for it.
            #expect(clock.now - start < .seconds(30))
        }
    }

    /// A JSON-RPC API whose result is exact, for the digits test.
    final class PreciseAPI<Value: Decodable & Sendable>: BaseAPI<Value>, @unchecked Sendable {
        init(manager: APIManager, baseURL: String) {
            super.init(
                definition: APIDefinition(
                    name: "Precise", wire: .jsonRPC(JSONRPCMethod("precise", path: "/v1/jsonrpc")),
                    errorResponses: [ErrorResponse(default: PreciseError.self)], defaults: APIDefaults(baseURL: baseURL)
                ),
                response: .json
            )
            using(manager)
        }
    }

    struct PreciseError: Decodable, Error {
        var amount: Decimal
    }

    @Test("Results and error data keep every digit: a 19-digit fraction and a 20-digit integer in Decimal, a UInt64 past Int64")
    func exactNumbers() async throws {
        let replies = NIOLockedValueBox([
            #"{"jsonrpc": "2.0", "result": 0.1234567890123456789, "id": 1}"#,
            #"{"jsonrpc": "2.0", "id": 2, "result": 12345678901234567890}"#,
            #"{"id": 3, "result": 18446744073709551615, "jsonrpc": "2.0"}"#,
            #"{"jsonrpc": "2.0", "error": {"code": 7, "message": "over", "data": {"amount": 98765432109876543210.5}}, "id": 4}"#,
        ])
        try await withServer({ _ in .json(replies.withLockedValue { $0.removeFirst() }) }) { server, manager in
            let fraction = try await PreciseAPI<Decimal>(manager: manager, baseURL: server.baseURL).start()
            #expect(fraction == Decimal(string: "0.1234567890123456789"))
            let integer = try await PreciseAPI<Decimal>(manager: manager, baseURL: server.baseURL).start()
            #expect(integer == Decimal(string: "12345678901234567890"))
            let unsigned = try await PreciseAPI<UInt64>(manager: manager, baseURL: server.baseURL).start()
            #expect(unsigned == .max)
            let error = await expectAPIError { try await PreciseAPI<Decimal>(manager: manager, baseURL: server.baseURL).start() }
            #expect((error?.serverError as? PreciseError)?.amount == Decimal(string: "98765432109876543210.5"))
            #expect(error?.reason == .rpcError(code: 7, message: "over", data: Data(#"{"amount": 98765432109876543210.5}"#.utf8)))
        }
    }
}
