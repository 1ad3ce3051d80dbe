extension CallPlan {
    /// The reply with its body replaced by what the call's protocol unwraps from it: a JSON-RPC
    /// result, a gRPC message after an OK status, a REST body after a 2xx status. Coalesced
    /// callers share an unwrapped reply, so that none checks it against ids it never sent.
    func unwrap(_ response: APIResponse) throws(APIError) -> APIResponse {
        var unwrapped = response
        if let delegate, let rpc, !rpc.isNotification {
            unwrapped.body = try delegate.unwrap(response, for: rpc)
        } else {
            // REST, and notifications, which await no reply: only the HTTP status counts.
            unwrapped.body = try RESTProtocol.unwrap(response, for: definition)
        }
        return unwrapped
    }
}
