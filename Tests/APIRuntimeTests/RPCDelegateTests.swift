import APIRuntime
import Foundation
import HTTPTypes
import Hummingbird
import Testing

/// A team's own protocol through `rpcDelegate`: requests wrapped as `{"cmd": ..., "args": {...}}`,
/// replies `{"code": 0, "data": ...}`. Written by hand here, as an app would, to show the hook works
/// on the wire; the JSON-RPC 2.0 delegate is built on the same hook.
struct CommandEnvelope: RPCDelegate {
    func wrap(_ request: inout APIRequest, for definition: APIDefinition) throws(APIError) {
        let arguments = request.body ?? Data("{}".utf8)
        request.body = Data(#"{"cmd":"\#(definition.path)","args":"#.utf8) + arguments + Data("}".utf8)
        request.headerFields[.contentType] = "application/json"
    }

    func unwrap(_ response: APIResponse, for definition: APIDefinition) throws(APIError) -> Data {
        func invalid(_ message: String) -> APIError {
            APIError(api: definition.name, reason: .invalidResponse(message: message))
        }
        guard response.status.kind == .successful else {
            throw APIError(api: definition.name, reason: .httpStatus(code: response.status.code, body: response.body))
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed]) as? [String: Any],
              let code = object["code"] as? Int
        else { throw invalid("expected {\"code\": ..., \"data\": ...}") }
        guard code == 0 else {
            throw APIError(api: definition.name, reason: .rpcError(code: code, message: object["msg"] as? String ?? "", data: nil))
        }
        guard let data = object["data"], let bytes = try? JSONSerialization.data(withJSONObject: data, options: [.fragmentsAllowed]) else {
            throw invalid("no data")
        }
        return bytes
    }
}

final class CountMembersAPI: BaseAPI<CountMembersAPI.Parameters, Int>, @unchecked Sendable {
    // @unchecked as in BaseAPI: no stored state here; BaseAPI's `state` lock guards what it inherits.
    struct Parameters: Sendable {
        var group: String
    }

    static let definition = APIDefinition(
        name: "CountMembers", method: .post, path: "members.count",
        baseURL: "https://legacy.example.com/rpc", defaults: APIDefaults()
    )

    init(group: String) {
        super.init(parameters: Parameters(group: group), definition: Self.definition, response: .json)
    }

    override var rpcDelegate: (any RPCDelegate)? { CommandEnvelope() }

    override func encodeParameters(into request: inout RequestBuilder) {
        request.body("group", parameters.group)
    }
}

@Suite("rpcDelegate on a loopback server")
struct RPCDelegateTests {
    @Test("The delegate wraps the encoded parameters and unwraps the result")
    func wrapsAndUnwraps() async throws {
        try await withServer(configure: { $0.baseURLOverrides = [:] }, { _ in .json(#"{"code": 0, "data": 17}"#) }) { server, manager in
            let api = CountMembersAPI(group: "admins").using(manager)
            api.baseURL = server.baseURL + "/rpc"
            let count = try await api.start()
            #expect(count == 17)
            let request = try #require(server.requests.first)
            #expect(request.method == .post)
            #expect(request.target == "/rpc/members.count")
            #expect(request.bodyText == #"{"cmd":"members.count","args":{"group":"admins"}}"#)
        }
    }

    @Test("An error in the envelope becomes an rpcError naming the API; a broken envelope an invalidResponse")
    func envelopeErrors() async throws {
        for (reply, expected) in [
            (#"{"code": 42, "msg": "no such group"}"#, APIError.Reason.rpcError(code: 42, message: "no such group", data: nil)),
            ("<html>oops</html>", .invalidResponse(message: #"expected {"code": ..., "data": ...}"#)),
        ] {
            try await withServer({ _ in .json(reply) }) { server, manager in
                let api = CountMembersAPI(group: "x").using(manager)
                api.baseURL = server.baseURL
                let error = await expectAPIError { try await api.start() }
                #expect(error?.api == "CountMembers")
                #expect(error?.reason == expected)
            }
        }
    }
}
