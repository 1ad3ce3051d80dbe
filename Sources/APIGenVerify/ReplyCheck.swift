import APIWireFormat
import APIGenKit
import APIManifest
import APIRuntime
import Foundation

/// Reads one reply of an API as its generated client would, and says where it differs from
/// the manifest.
struct ReplyCheck {
    let workspace: WorkspaceDescription
    let conformance: JSONConformance

    init(workspace: WorkspaceDescription) {
        self.workspace = workspace
        conformance = JSONConformance(models: workspace.models)
    }

    /// What the runtime handed on from a call that succeeded: a REST body after a 2xx status, a
    /// JSON-RPC result, a gRPC message after OK.
    func findings(for api: APIDescription, reply body: Data) -> [ContractFinding] {
        switch api.shape {
        case .grpc(let grpc):
            return ProtobufReader(shapes: workspace.protoShapes).problems(in: Array(body), message: grpc.responseMessage).map { ContractFinding(api: api, $0) }
        case .rest(let rest):
            guard api.response.decoding == .json, rest.method != .HEAD, let type = api.response.type.expression else { return [] }
            return jsonFindings(for: api, body: body, as: type, what: "the reply")
        case .jsonRPC, .customRPC:
            guard api.response.decoding == .json, let type = api.response.type.expression else { return [] }
            guard let result = JSONValue.parse(body) else { return [Self.unreadable(body, api: api, what: "the result")] }
            return conformance.problems(in: result, as: type).map { finding in
                var problem = finding
                problem.path = "$.result" + finding.path.dropFirst()
                return ContractFinding(api: api, problem)
            }
        }
    }

    /// What the runtime made of a call that failed: a status the API may declare, the protocol's
    /// error, or no reply at all.
    func findings(for api: APIDescription, error: APIError, request: String) -> [ContractFinding] {
        switch error.reason {
        case .httpStatus(let status, let body):
            guard api.shape.rpc == nil else {
                return [ContractFinding(api: api, kind: .undeclaredStatus, message: "the server answered HTTP \(status) to a JSON-RPC call: \(Self.excerpt(body))")]
            }
            return findings(for: api, status: status, body: body)
        case .rpcError(let code, let message, _):
            return [ContractFinding(api: api, kind: .rpcError, message: "the server answered error \(code): \(message)")]
        case .grpcStatus(let code, let message) where code == .unavailable || code == .deadlineExceeded:
            // What grpc-swift ends a call with that reached no server, or no answer in time.
            return [ContractFinding(api: api, kind: .callFailed, message: "no reply from \(request): the call ended \(code): \(message)")]
        case .grpcStatus(let code, let message):
            return [ContractFinding(api: api, kind: .rpcError, message: "the server answered \(code): \(message)")]
        case .invalidResponse(let message):
            // A reply the generated client refuses: not the protocol's, too large, a redirect it does not follow.
            return [ContractFinding(api: api, kind: .invalidReply, message: "the generated client refuses the reply: \(message)")]
        default:
            return [ContractFinding(api: api, kind: .callFailed, message: "no reply from \(request): \(error.reason)")]
        }
    }

    /// A REST reply whose status is not 2xx: a status the API or its workspace declares is the
    /// server's right, and its body is checked against its model.
    private func findings(for api: APIDescription, status: Int, body: Data) -> [ContractFinding] {
        let declared = api.errorResponses.first { $0.status == status } ?? workspace.defaults.errorResponses.first { $0.status == status }
            ?? api.errorResponses.first { $0.status == nil } ?? workspace.defaults.errorResponses.first { $0.status == nil }
        guard let declared else {
            return [ContractFinding(api: api, kind: .undeclaredStatus, message: "the server answered \(status), which the API does not declare under 'responses:': \(Self.excerpt(body))")]
        }
        guard let model = workspace.models.first(where: { $0.swiftName == declared.swiftType }) else { return [] }
        return jsonFindings(for: api, body: body, as: .named(model.manifestName), what: "the \(status) reply")
    }

    private func jsonFindings(for api: APIDescription, body: Data, as type: TypeExpression, what: String) -> [ContractFinding] {
        guard let value = JSONValue.parse(body) else { return [Self.unreadable(body, api: api, what: what)] }
        return conformance.problems(in: value, as: type).map { problem in
            var finding = ContractFinding(api: api, problem)
            if what != "the reply" { finding.message = "in \(what), " + finding.message }
            return finding
        }
    }

    /// Why a body `JSONValue` cannot read is not read: it is not JSON, or it nests too deeply.
    static func unreadable(_ body: Data, api: APIDescription, what: String) -> ContractFinding {
        let depth = JSONValue.nestingDepth(of: body)
        guard depth <= JSONValue.maximumDepth else {
            return ContractFinding(api: api, kind: .notJSON, message: "\(what) nests \(depth) levels deep; the check reads at most \(JSONValue.maximumDepth)", breaksDecoding: depth > 512)
        }
        return ContractFinding(api: api, kind: .notJSON, message: "\(what) is not JSON: \(Self.excerpt(body))")
    }

    /// The start of a body, on one line, for a message.
    static func excerpt(_ body: Data) -> String {
        guard !body.isEmpty else { return "(an empty body)" }
        let text = String(decoding: body.prefix(200), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return body.count > 200 ? text + "…" : text
    }
}
