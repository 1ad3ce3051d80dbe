/// A request that reached a stubbing manager's stubs: what the app sent, after the interceptors.
/// A retried call is recorded once for each attempt.
public struct RecordedCall: Sendable {
    /// The API's manifest name (`GetUser`).
    public let name: String
    /// The request as the network would have seen it: its URL, headers (the interceptors' too)
    /// and body.
    public let request: APIRequest
    /// Who made the call: the API instance, for a member of a JSON-RPC batch too.
    let caller: Caller

    /// The API that made the call, typed, when it is an `API`: `call.api(GetUserAPI.self)?.id`.
    public func api<API>(_ type: API.Type) -> API? {
        guard case .api(let instance) = caller else { return nil }
        return instance as? API
    }
}
