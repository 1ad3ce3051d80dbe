import APIGenKit
import APIWireFormat
import Foundation

/// What the mock server answers one request with: a sample, a JSON-RPC reply around one, or an
/// error saying why there is none.
struct MockAnswer: Sendable {
    /// The API that answered; nil when none matched.
    let api: String?
    let status: Int
    let body: Data
    let delay: Duration

    static func answer(routes: MockRoutes, method: String, path: String, body: Data, maxBatchRequests: Int = 100) -> MockAnswer {
        if method == "POST", let methods = routes.rpcMethods(at: path) {
            return jsonRPC(body, methods: methods, maxBatchRequests: maxBatchRequests)
        }
        guard let route = routes.route(method: method, path: path) else {
            return MockAnswer(api: nil, status: 404, body: error("no API of the workspace answers \(method) \(path)"), delay: .zero)
        }
        guard let sample = route.sample else {
            if route.answersNoContent { return MockAnswer(api: route.api, status: 204, body: Data(), delay: .zero) }
            return MockAnswer(api: route.api, status: 501, body: error("\(route.api) declares no sample: in its manifest"), delay: .zero)
        }
        return MockAnswer(api: route.api, status: sample.status, body: Data((sample.json ?? "").utf8), delay: delay(of: sample))
    }

    /// A JSON-RPC request or batch, answered method by method from the samples, with each
    /// request's id; a notification gets no reply object. An empty batch, or one of more than
    /// `maxBatchRequests`, is one Invalid Request error, as the specification answers `[]`.
    static func jsonRPC(_ body: Data, methods: [String: MockRoutes.RPCMethod], maxBatchRequests: Int = 100) -> MockAnswer {
        guard let parsed = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return MockAnswer(api: nil, status: 200, body: errorReply(-32700, "Parse error", id: NSNull()), delay: .zero)
        }
        if let batch = parsed as? [Any] {
            guard !batch.isEmpty else {
                return MockAnswer(api: nil, status: 200, body: errorReply(-32600, "Invalid Request", id: NSNull()), delay: .zero)
            }
            guard batch.count <= maxBatchRequests else {
                let message = "Invalid Request: a batch of \(batch.count) requests; apigen serve answers at most \(maxBatchRequests)"
                return MockAnswer(api: nil, status: 200, body: errorReply(-32600, message, id: NSNull()), delay: .zero)
            }
            let answers = batch.map { object(answering: $0, methods: methods) }
            // A member whose sample is an HTTP error status fails the whole request, as a server's would.
            if let failed = answers.first(where: { $0.status != nil }), let status = failed.status {
                return MockAnswer(api: failed.api, status: status, body: failed.reply ?? Data(), delay: failed.delay)
            }
            let replies = answers.compactMap(\.reply)
            let names = Set(answers.compactMap(\.api)).sorted().joined(separator: ", ")
            let delay = answers.map(\.delay).max() ?? .zero
            guard !replies.isEmpty else { return MockAnswer(api: names, status: 204, body: Data(), delay: delay) }
            return MockAnswer(api: names, status: 200, body: Data("[".utf8) + Data(replies.joined(separator: Data(",".utf8))) + Data("]".utf8), delay: delay)
        }
        let answer = object(answering: parsed, methods: methods)
        if let status = answer.status { return MockAnswer(api: answer.api, status: status, body: answer.reply ?? Data(), delay: answer.delay) }
        guard let reply = answer.reply else { return MockAnswer(api: answer.api, status: 204, body: Data(), delay: answer.delay) }
        return MockAnswer(api: answer.api, status: 200, body: reply, delay: answer.delay)
    }

    /// One request object's reply (nil for a notification); `status` is set when the sample
    /// answers with an HTTP error status instead of a result.
    private static func object(answering request: Any, methods: [String: MockRoutes.RPCMethod]) -> (api: String?, reply: Data?, status: Int?, delay: Duration) {
        guard let request = request as? [String: Any], request["jsonrpc"] as? String == "2.0", let name = request["method"] as? String else {
            return (nil, errorReply(-32600, "Invalid Request", id: NSNull()), nil, .zero)
        }
        let id = request["id"]
        guard let method = methods[name] else {
            return (nil, id.map { errorReply(-32601, "Method not found", id: $0) }, nil, .zero)
        }
        guard let sample = method.sample else {
            return (method.api, id.map { errorReply(-32000, "\(method.api) declares no sample: in its manifest", id: $0) }, nil, .zero)
        }
        guard (200..<300).contains(sample.status) else {
            return (method.api, Data((sample.json ?? "").utf8), sample.status, delay(of: sample))
        }
        guard let id else { return (method.api, nil, nil, delay(of: sample)) }
        let reply = JSONRPCEnvelope.result(Data((sample.json ?? "null").utf8), id: String(decoding: json(id), as: UTF8.self))
        return (method.api, reply, nil, delay(of: sample))
    }

    private static func errorReply(_ code: Int, _ message: String, id: Any) -> Data {
        JSONRPCEnvelope.error(code: code, message: message, id: String(decoding: json(id), as: UTF8.self))
    }

    private static func json(_ value: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes])) ?? Data("null".utf8)
    }

    static func error(_ message: String) -> Data {
        Data(#"{"error":"#.utf8) + json(message) + Data("}".utf8)
    }

    private static func delay(of sample: SampleDescription) -> Duration {
        .milliseconds(Int(((sample.delaySeconds ?? 0) * 1000).rounded()))
    }
}
