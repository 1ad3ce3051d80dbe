import APIWireFormat
import Foundation
import HTTPTypes

/// The stage that makes each attempt's request what goes on the wire (`OutgoingRequest`): the
/// plan's request adapted by every interceptor, then with the manager's cookies for the URL it
/// goes to. It runs before the cache and the duplicate gate read the call, and again for each later
/// attempt, so that a refreshed token or a cookie a reply set goes with it.
struct Preparation: Sendable {
    let interceptors: InterceptorChain

    /// The request of an attempt of `plan` whose context is `context`, asking the server to confirm
    /// a stored reply when `validators` are given.
    func prepare(_ plan: CallPlan, context: APICallContext, validators: HTTPFields = [:]) async throws(APIError) -> OutgoingRequest {
        var request = try await interceptors.adapt(plan.request, context: context)
        // After the interceptors, so that the cookies are those of where the request goes, and a
        // `Cookie` field an interceptor set is left as it is.
        if plan.carriesCookies { plan.sessionSettings.cookies.attach(to: &request) }
        // A call no stage compares with another needs no identity, which takes a few microseconds.
        guard plan.isCompared else {
            return OutgoingRequest(request: request, identity: "", credentials: nil, validators: [:])
        }
        let identity = CallIdentity.key(for: request, body: parameters(of: request, plan), definition: plan.definition, kind: plan.definition.kind.description)
        let outgoing = OutgoingRequest(request: request, identity: identity, credentials: Credentials(request.head), validators: [:])
        return validators.isEmpty ? outgoing : outgoing.revalidating(with: validators)
    }

    /// The body a call's identity reads: an RPC call's parameters, not the envelope whose id
    /// differs on every call; but when an interceptor changed the envelope (a session put in it),
    /// the envelope as sent, a JSON-RPC one without its id.
    private func parameters(of request: APIRequest, _ plan: CallPlan) -> Data? {
        // Plain HTTP: the body as sent.
        guard let delegate = plan.delegate else { return request.body }
        // The envelope as the protocol wrapped it: its parameters.
        guard request.body != plan.request.body else { return plan.unwrappedBody }
        guard delegate is JSONRPC, let body = request.body else { return request.body }
        let envelope = JSONSlices(body)
        guard let members = try? envelope.members() else { return body }
        var parameters = Data()
        for member in members.sorted(by: { $0.key < $1.key }) where member.key != "id" {
            parameters.append(contentsOf: Data("\(member.key.utf8.count):\(member.key)=".utf8))
            Self.appendCanonical(JSONSlices(envelope[member.value]), to: &parameters)
            parameters.append(UInt8(ascii: "\n"))
        }
        return parameters
    }

    /// Appends `value` as one text whatever the order of its objects' members or its whitespace:
    /// members in order of key at every level, every other value's bytes as written, so that a
    /// number keeps every digit. Past 32 levels a value goes as written.
    private static func appendCanonical(_ value: JSONSlices, to text: inout Data, depth: Int = 0) {
        if depth < 32, let members = try? value.members() {
            text.append(UInt8(ascii: "{"))
            for member in members.sorted(by: { $0.key < $1.key }) {
                text.append(contentsOf: Data("\(member.key.utf8.count):\(member.key)=".utf8))
                appendCanonical(JSONSlices(value[member.value]), to: &text, depth: depth + 1)
                text.append(UInt8(ascii: ","))
            }
            text.append(UInt8(ascii: "}"))
        } else if depth < 32, let elements = try? value.elements() {
            text.append(UInt8(ascii: "["))
            for element in elements {
                appendCanonical(JSONSlices(value[element]), to: &text, depth: depth + 1)
                text.append(UInt8(ascii: ","))
            }
            text.append(UInt8(ascii: "]"))
        } else {
            text.append(contentsOf: value.bytes.trimmingJSONWhitespace)
        }
    }
}

private extension Data {
    /// The bytes without the JSON whitespace around them.
    var trimmingJSONWhitespace: Data {
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        guard let first = firstIndex(where: { !whitespace.contains($0) }), let last = lastIndex(where: { !whitespace.contains($0) }) else { return Data() }
        return self[first...last]
    }
}
