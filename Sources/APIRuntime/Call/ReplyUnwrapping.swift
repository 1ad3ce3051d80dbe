extension CallPlan {
    /// The reply with its body replaced by what the call's protocol unwraps from it: a JSON-RPC
    /// result, a gRPC message after an OK status, a REST body after a 2xx status. Coalesced
    /// callers share an unwrapped reply, so that none checks it against ids it never sent.
    /// A JSON-RPC batch's reply is handed back as it is: the batch reads each member's reply from
    /// the array itself.
    func unwrap(_ response: APIResponse) throws(APIError) -> APIResponse {
        if case .batch = caller { return response }
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
