import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// A team's own protocol through `rpcDelegate`: the generated `CountMembersAPI` (`kind: rpc`,
/// `delegate: CommandEnvelope`) against a loopback server speaking `{"cmd": ..., "args": ...}`.
@Suite("Custom rpcDelegate on a loopback server")
struct RPCDelegateTests {
    @Test("The delegate wraps the encoded parameters and unwraps the result")
    func wrapsAndUnwraps() async throws {
        try await withServer({ _ in .json(#"{"code": 0, "data": 17}"#) }) { server, manager in
            let count = try await CountMembersAPI(group: "admins").using(manager).start()
            #expect(count == 17)
            let request = try #require(server.requests.first)
            #expect(request.method == .post)
            #expect(request.target == "/legacy/gateway")
            #expect(request.bodyText == #"{"cmd":"members.count","args":{"group":"admins"}}"#)
        }
    }

    @Test("An error in the envelope becomes an rpcError naming the API; a broken envelope an invalidResponse")
    func envelopeErrors() async throws {
        for (reply, expected) in [
            (#"{"code": 42, "msg": "no such group"}"#, APIError.Reason.rpcError(code: 42, message: "no such group", data: nil)),
            ("<html>oops</html>", .invalidResponse(message: #"expected {"code": ..., "data": ...}"#)),
        ] {
            try await withServer({ _ in .json(reply) }) { _, manager in
                let error = await expectAPIError { try await CountMembersAPI(group: "x").using(manager).start() }
                #expect(error?.api == "CountMembers")
                #expect(error?.reason == expected)
            }
        }
    }
}
