import Foundation

/// Where stubs answer in place of the network: at the end of the interceptor chain, so that a
/// stubbed call goes through every stage a real one does (its deadline, the interceptors, the
/// retry policy, the protocol's unwrapping and the decoding).
///
/// A typed stub (`APIManager.stub`) answers first, then the configuration's `StubSet`. Once a
/// test has stubbed any API on the manager, a call that neither answers fails with
/// `APIError.Reason.notStubbed` rather than reach the network.
struct StubStage: Sendable {
    let configured: StubSet?
    let registry = StubRegistry()
    let clock: any APIClock

    /// The stubbed reply to `request`; nil when the network answers it.
    func answer(_ request: APIRequest, plan: CallPlan) async throws(APIError) -> APIResponse? {
        let (isStubbing, stub) = registry.take(request, from: plan.caller)
        switch plan.caller {
        case .batch(let members) where isStubbing:
            return try await answer(members, request: request)
        case .api(let instance):
            if let stub {
                try await wait(stub.delay, api: request.api)
                return try await reply(of: stub, to: instance, request: request, plan: plan)
            }
        case .batch:
            break
        }
        if let stub = configured?.stub(for: request, definition: plan.definition) {
            try await wait(stub.delay, api: request.api)
            return stub.response()
        }
        if let sample = configured?.sample(for: plan.definition) {
            try await wait(sample.delay, api: request.api)
            // An RPC API's sample is its result, which goes in the envelope with the call's id.
            if let rpc = plan.rpc, let delegate = plan.delegate, (200..<300).contains(sample.status) {
                return rpc.isNotification ? APIResponse(status: .noContent) : delegate.reply(with: sample.body, for: rpc)
            }
            return sample.response()
        }
        guard !isStubbing else {
            throw APIError(api: request.api, reason: .notStubbed(request: Self.summary(of: request, plan: plan)))
        }
        return nil
    }

    /// A batch's reply: each member answered by its typed stub, the replies (notifications
    /// have none) in one array; a member no stub answers fails the batch, naming it.
    private func answer(_ members: [CallPlan], request: APIRequest) async throws(APIError) -> APIResponse {
        var replies: [Data] = []
        for member in members {
            guard case .api(let instance) = member.caller, let stub = registry.stub(for: instance) else {
                throw APIError(api: request.api, reason: .notStubbed(request: Self.summary(of: member.request, plan: member) + " in a batch"))
            }
            try await wait(stub.delay, api: request.api)
            let reply = try await self.reply(of: stub, to: instance, request: member.request, plan: member)
            guard reply.isSuccess else { return reply }
            if member.rpc?.isNotification == false { replies.append(reply.body) }
        }
        guard !replies.isEmpty else { return APIResponse(status: .noContent) }
        var body = Data("[".utf8)
        body.append(contentsOf: replies.joined(separator: Data(",".utf8)))
        body.append(Data("]".utf8))
        return APIResponse(status: .ok, headerFields: [.contentType: "application/json"], body: body)
    }

    private func wait(_ delay: Duration, api: String) async throws(APIError) {
        guard delay > .zero else { return }
        do {
            try await clock.sleep(for: delay)
        } catch {
            throw APIError(api: api, reason: .cancelled, underlying: error)
        }
    }

    /// What `stub` answers; a `StubError` it throws becomes the reply or failure it describes.
    private func reply(of stub: StubRegistry.Stub, to instance: any Sendable, request: APIRequest, plan: CallPlan) async throws(APIError) -> APIResponse {
        let api = request.api
        do {
            return try await stub.answer(instance, StubbedCall(request: request, rpc: plan.rpc, delegate: plan.delegate))
        } catch let error as StubError {
            switch error.failure {
            case .reply(let response):
                guard (response.grpcStatus != nil) == (plan.definition.kind == .grpc) else {
                    let answer = response.grpcStatus == nil ? "an HTTP status" : "a gRPC status"
                    throw APIError(api: api, reason: .invalidRequest(message: "the stub answers \(answer), which a \(plan.definition.kind) API cannot get"))
                }
                return response
            case .rpcError(let code, let message, let data):
                guard plan.definition.kind == .jsonRPC, let rpc = plan.rpc else {
                    throw APIError(api: api, reason: .invalidRequest(message: "the stub answers a JSON-RPC error, which a \(plan.definition.kind) API cannot get"))
                }
                return JSONRPC.errorReply(code: code, message: message, data: data, id: rpc.id)
            case .connection(let message):
                throw APIError(api: api, reason: .transport(message: message), underlying: error)
            }
        } catch {
            throw APIError.wrapping(error, api: api) { APIError(api: api, reason: .transport(message: "\($0)"), underlying: $0) }
        }
    }

    /// `GET https://api.example.com/users/7`, or `POST https://api.example.com/rpc (subtract)`:
    /// what a call sent, without its query, which may carry a key.
    private static func summary(of request: APIRequest, plan: CallPlan) -> String {
        let path = request.head.path.map { $0.split(separator: "?", maxSplits: 1).first.map(String.init) ?? $0 } ?? ""
        let url = "\(request.head.scheme ?? "https")://\(request.head.authority ?? "")\(path)"
        let method = plan.rpc.map { " (\($0.method))" } ?? ""
        return "\(request.method) \(url)\(method)"
    }
}
