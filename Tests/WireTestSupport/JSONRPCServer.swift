import Foundation
import Hummingbird
import NIOCore

/// A JSON-RPC 2.0 server written from the specification, for a `LoopbackServer` to answer with:
/// the methods of the spec's examples, notifications, batches, and the standard error objects.
public enum JSONRPCServer {
    public static func handle(_ request: RecordedRequest) -> Response {
        guard let reply = reply(to: request.body) else {
            return Response(status: .noContent)
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: reply)))
    }

    /// The reply bytes, or nil when nothing is to be returned (notifications only).
    public static func reply(to body: Data) -> Data? {
        guard let parsed = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return encode(error(-32700, "Parse error", id: NSNull()))
        }
        if let batch = parsed as? [Any] {
            guard !batch.isEmpty else { return encode(error(-32600, "Invalid Request", id: NSNull())) }
            // Answered in reverse order, so clients must match replies by id.
            let replies = batch.compactMap(answer).reversed()
            return replies.isEmpty ? nil : encode(Array(replies))
        }
        return answer(parsed).map(encode)
    }

    /// The response object for one request object, nil for a notification.
    static func answer(_ request: Any) -> Any? {
        guard let object = request as? [String: Any], object["jsonrpc"] as? String == "2.0",
              let method = object["method"] as? String
        else { return error(-32600, "Invalid Request", id: NSNull()) }
        let id = object["id"]
        let params = object["params"]
        let outcome: Result<Any, JSONRPCFailure> = call(method, params)
        guard let id else { return nil }
        switch outcome {
        case .success(let result): return ["jsonrpc": "2.0", "result": result, "id": id]
        case .failure(let failure): return error(failure.code, failure.message, data: failure.data, id: id)
        }
    }

    struct JSONRPCFailure: Error {
        var code: Int
        var message: String
        var data: [String: Double]?
    }

    static func call(_ method: String, _ params: Any?) -> Result<Any, JSONRPCFailure> {
        let invalidParams = JSONRPCFailure(code: -32602, message: "Invalid params")
        switch method {
        case "subtract":
            if let list = params as? [Int], list.count == 2 { return .success(list[0] - list[1]) }
            if let named = params as? [String: Int], let minuend = named["minuend"], let subtrahend = named["subtrahend"] {
                return .success(minuend - subtrahend)
            }
            return .failure(invalidParams)
        case "sum":
            guard let list = params as? [Int] else { return .failure(invalidParams) }
            return .success(list.reduce(0, +))
        case "update", "notify_hello":
            return .success(NSNull())
        case "get_data":
            return .success(["hello", 5] as [Any])
        case "math.divide":
            guard let named = params as? [String: Double], let dividend = named["dividend"], let divisor = named["divisor"] else {
                return .failure(invalidParams)
            }
            guard divisor != 0 else { return .failure(JSONRPCFailure(code: -32000, message: "division by zero", data: ["dividend": dividend])) }
            return .success(dividend / divisor)
        default:
            return .failure(JSONRPCFailure(code: -32601, message: "Method not found"))
        }
    }

    static func error(_ code: Int, _ message: String, data: [String: Double]? = nil, id: Any) -> [String: Any] {
        var error: [String: Any] = ["code": code, "message": message]
        if let data { error["data"] = data }
        return ["jsonrpc": "2.0", "error": error, "id": id]
    }

    static func encode(_ value: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])) ?? Data()
    }
}
