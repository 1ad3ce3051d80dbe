import Foundation
import NIOConcurrencyHelpers

/// The typed stubs a test registered on a manager (`APIManager.stub`), by API class, and the
/// requests its stubs were asked. Registering the first stub makes the manager a stubbing one:
/// from then on it sends nothing to the network.
final class StubRegistry: Sendable {
    /// A stub: how long it takes, and what it answers a call with.
    struct Stub: Sendable {
        let delay: Duration
        let answer: @Sendable (_ api: any Sendable, _ call: StubbedCall) async throws -> APIResponse
    }

    private struct State {
        var stubs: [ObjectIdentifier: Stub] = [:]
        var recorded: [RecordedCall] = []
        var isStubbing = false
    }

    /// Guards the stubs and the recorded calls.
    private let state = NIOLockedValueBox(State())

    /// Answers calls of `type` with `stub` from now on, in place of any stub it had.
    func register(_ type: Any.Type, _ stub: Stub) {
        state.withLockedValue { state in
            state.stubs[ObjectIdentifier(type)] = stub
            state.isStubbing = true
        }
    }

    /// Removes every stub and recorded call: the manager sends to the network again.
    func removeAll() {
        state.withLockedValue { $0 = State() }
    }

    /// Whether the manager answers from stubs, and the stub for the class of the API instance
    /// making the call; records the request when it does (each member of a batch, with the batch's
    /// request).
    func take(_ request: APIRequest, from caller: Caller) -> (isStubbing: Bool, stub: Stub?) {
        state.withLockedValue { state in
            guard state.isStubbing else { return (false, nil) }
            switch caller {
            case .batch(let members):
                for member in members {
                    state.recorded.append(RecordedCall(name: member.definition.name, request: request, caller: member.caller))
                }
                return (true, nil)
            case .api(let instance):
                state.recorded.append(RecordedCall(name: request.api, request: request, caller: caller))
                return (true, state.stubs[ObjectIdentifier(type(of: instance))])
            }
        }
    }

    /// The stub for calls of `instance`'s class.
    func stub(for instance: any Sendable) -> Stub? {
        state.withLockedValue { $0.stubs[ObjectIdentifier(type(of: instance))] }
    }

    var recorded: [RecordedCall] { state.withLockedValue { $0.recorded } }
}

/// What a typed stub is told of the call it answers, besides its API: enough to write the reply
/// as the call's protocol would.
package struct StubbedCall: Sendable {
    /// The request as it reached the stub, after the interceptors.
    package let request: APIRequest
    /// The call as its protocol sees it (remote method, request id); nil for REST.
    package let rpc: RPCCall?
    let delegate: (any RPCDelegate)?

    /// The reply a server sends when the call returns `result`, its value encoded: as it is for
    /// REST, with `contentType`; in the protocol's envelope otherwise.
    package func reply(result: Data, contentType: String) -> APIResponse {
        guard let rpc, let delegate else {
            return APIResponse(status: .ok, headerFields: [.contentType: contentType], body: result)
        }
        return delegate.reply(with: result, for: rpc)
    }

    /// The reply to a call that returns nothing: `204 No Content`, or the protocol's `null` result.
    package var emptyReply: APIResponse {
        guard let rpc, let delegate, !rpc.isNotification else { return APIResponse(status: .noContent) }
        return delegate.reply(with: Data("null".utf8), for: rpc)
    }
}
