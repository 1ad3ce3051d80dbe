/// The end of the interceptor chain: a stub when one answers the API, else the transport of the
/// call's session (one per host, made on first use).
struct TransportStage: Sendable {
    let sessions: SessionCache
    let stubs: StubStage

    func send(_ request: APIRequest, plan: CallPlan) async throws(APIError) -> APIResponse {
        if let stubbed = try await stubs.answer(request, plan: plan) { return stubbed }
        let lease = try acquire(session(of: request, plan: plan), plan: plan, api: request.api)
        var response: APIResponse
        do {
            response = try await lease.transport.send(request)
        } catch {
            sessions.release(lease)
            throw error
        }
        // A reply that goes on after this returns (a body read as it arrives, a message stream)
        // keeps its session in use until it ends, so that evicting the session cannot cut it.
        if let body = response.streamedBody {
            response.streamedBody = body.onEnd(EndAction { [sessions] in sessions.release(lease) })
        } else if let stream = response.stream {
            stream.onEnd { [sessions] in sessions.release(lease) }
        } else {
            sessions.release(lease)
        }
        return response
    }

    /// The plan's session, or the one for where an interceptor sent the request instead.
    private func session(of request: APIRequest, plan: CallPlan) throws(APIError) -> SessionKey {
        if request.head.scheme == plan.request.head.scheme, request.head.authority == plan.request.head.authority {
            return plan.session
        }
        guard let key = SessionKey(request, transport: plan.transport.name), plan.transport.schemes.contains(key.scheme) else {
            throw APIError(api: request.api, reason: .invalidRequest(message: "an interceptor sent the call to a URL the \(plan.transport.name) transport cannot reach"))
        }
        return key
    }

    private func acquire(_ key: SessionKey, plan: CallPlan, api: String) throws(APIError) -> SessionCache.Lease {
        do {
            guard let lease = try sessions.acquire(key, settings: plan.sessionSettings, factory: plan.transport) else {
                throw APIError(api: api, reason: .cancelled, underlying: ManagerShutDown())
            }
            return lease
        } catch let error as APIError {
            throw error
        } catch let error as TLSFailure {
            throw APIError(api: api, reason: .tls(error), underlying: error)
        } catch {
            throw APIError(api: api, reason: .invalidRequest(message: "cannot make a \(plan.transport.name) transport for \(key): \(error)"), underlying: error)
        }
    }
}
