import Foundation

/// The JSON-RPC 2.0 envelope (jsonrpc.org/specification) as bytes, written one way for the
/// runtime's calls and stubs, the mock server's replies and the contract check's calls.
/// Parameters, results and error data go in as the JSON their writer made, byte for byte, so a
/// number keeps every digit.
package enum JSONRPCEnvelope {
    /// `{"jsonrpc":"2.0","method":…,"params":…,"id":…}` and the `extra` members an API's
    /// manifest adds to its envelope; `params` left out when nil, `id` for a notification.
    package static func request(method: String, params: Data?, id: Int?, extra: [(name: String, value: JSONValue)] = []) -> Data {
        var data = Data(#"{"jsonrpc":"2.0","method":"#.utf8)
        data.append(Data(JSONValue.quoted(method).utf8))
        if let params {
            data.append(Data(#","params":"#.utf8))
            data.append(params)
        }
        if let id {
            data.append(Data(#","id":\#(id)"#.utf8))
        }
        for member in extra {
            data.append(Data(",".utf8))
            data.append(Data(JSONValue.quoted(member.name).utf8))
            data.append(Data(":".utf8))
            data.append(member.value.data)
        }
        data.append(Data("}".utf8))
        return data
    }

    /// `{"jsonrpc":"2.0","result":…,"id":…}`: a server's reply; `id` is the JSON text of the
    /// request's id (`7`, `"a"`, `null`).
    package static func result(_ result: Data, id: String) -> Data {
        var body = Data(#"{"jsonrpc":"2.0","result":"#.utf8)
        body.append(result)
        body.append(Data(#","id":\#(id)}"#.utf8))
        return body
    }

    /// `{"jsonrpc":"2.0","error":{"code":…,"message":…,"data":…},"id":…}`: a server's error
    /// object; `data` left out when nil, `id` the JSON text of the request's id.
    package static func error(code: Int, message: String, data: Data? = nil, id: String) -> Data {
        var body = Data(#"{"jsonrpc":"2.0","error":{"code":\#(code),"message":"#.utf8)
        body.append(Data(JSONValue.quoted(message).utf8))
        if let data {
            body.append(Data(#","data":"#.utf8))
            body.append(data)
        }
        body.append(Data(#"},"id":\#(id)}"#.utf8))
        return body
    }

    /// The JSON text of an id as a request carries it: its digits, or `null` for none.
    package static func idText(_ id: Int?) -> String {
        id.map(String.init) ?? "null"
    }
}
