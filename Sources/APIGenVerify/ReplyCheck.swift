import APIWireFormat
import APIGenKit
import APIManifest
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

    func findings(for api: APIDescription, status: Int, body: Data) -> [ContractFinding] {
        if api.rpc != nil { return rpcFindings(for: api, status: status, body: body) }
        if (200..<300).contains(status) {
            guard api.response.decoding == .json, api.rest?.method != .HEAD, let type = api.response.type.expression else { return [] }
            return jsonFindings(for: api, body: body, as: type, what: "the reply")
        }
        let declared = api.errorResponses.first { $0.status == status } ?? workspace.defaults.errorResponses.first { $0.status == status }
            ?? api.errorResponses.first { $0.status == nil } ?? workspace.defaults.errorResponses.first { $0.status == nil }
        guard let declared else {
            return [ContractFinding(api: api, kind: .undeclaredStatus, message: "the server answered \(status), which the API does not declare under 'responses:': \(Self.excerpt(body))")]
        }
        // A declared error status is the server's right; its body is checked against its model.
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

    private func rpcFindings(for api: APIDescription, status: Int, body: Data) -> [ContractFinding] {
        guard (200..<300).contains(status) else {
            return [ContractFinding(api: api, kind: .undeclaredStatus, message: "the server answered HTTP \(status) to a JSON-RPC call: \(Self.excerpt(body))")]
        }
        guard let reply = JSONValue.parse(body) else { return [Self.unreadable(body, api: api, what: "the reply")] }
        guard case .object(let envelope) = reply else {
            return [ContractFinding(api: api, kind: .notJSON, message: "the reply is not a JSON-RPC object: \(Self.excerpt(body))")]
        }
        if case .object(let error)? = envelope["error"] {
            let code = error["code"]?.text ?? "?"
            let message = error["message"]?.text ?? ""
            return [ContractFinding(api: api, kind: .rpcError, message: "the server answered error \(code): \(message)")]
        }
        guard let result = envelope["result"] else {
            return [ContractFinding(api: api, kind: .rpcError, message: "the reply has neither 'result' nor 'error': \(Self.excerpt(body))")]
        }
        guard api.response.decoding == .json, let type = api.response.type.expression else { return [] }
        return conformance.problems(in: result, as: type).map { finding in
            var problem = finding
            problem.path = "$.result" + finding.path.dropFirst()
            return ContractFinding(api: api, problem)
        }
    }

    func findings(for api: APIDescription, grpcReply reply: GRPCUnaryCall.Reply) -> [ContractFinding] {
        guard let message = reply.message, let grpc = api.grpc else {
            return [ContractFinding(api: api, kind: .rpcError, message: "the server answered \(reply.code): \(reply.statusMessage)")]
        }
        return ProtobufReader(shapes: workspace.protoShapes).problems(in: message, message: grpc.responseMessage).map { ContractFinding(api: api, $0) }
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
