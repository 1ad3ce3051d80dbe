import HTTPTypes

/// One attempt's request as it goes on the wire, and what the stages that key, match or record
/// a call read of it. The plan's request, wrapped by its protocol, gets the manager's cookies and
/// is adapted by every interceptor (`Preparation`); nothing changes it after that. The response
/// cache keys and matches this value, the duplicate gate compares it, the interceptors see it and
/// the transport sends it.
struct OutgoingRequest: Sendable {
    /// The request as it is sent.
    let request: APIRequest
    /// What the call asks, credentials aside (`CallIdentity`); empty when no stage compares the
    /// call with another (its frequency allows duplicates, and it has no cache).
    let identity: String
    /// The credentials it carries; nil when none.
    let credentials: Credentials?
    /// A stored reply's validators (`If-None-Match`, `If-Modified-Since`), already among the
    /// request's fields, when the cache asks the server to confirm that reply; else empty.
    let validators: HTTPFields

    /// Whether the request asks the server to confirm a cached reply, so that a
    /// `304 Not Modified` is handed back as it is rather than failing as a status.
    var isRevalidation: Bool { !validators.isEmpty }

    /// What the duplicate gate compares calls by.
    var duplicateKey: DuplicateKey {
        DuplicateKey(identity: identity, account: request.account, credentials: credentials?.text, isRevalidation: isRevalidation)
    }

    /// Whether `other` is made for the same caller: the same account and credentials.
    func isSameCaller(as other: OutgoingRequest) -> Bool {
        request.account == other.request.account && credentials == other.credentials
    }

    /// This request, to be over by `deadline` rather than the one it was prepared with (what a
    /// transport that passes a deadline on gives its server).
    func restarted(until deadline: ContinuousClock.Instant) -> OutgoingRequest {
        var request = request
        request.deadline = deadline
        return OutgoingRequest(request: request, identity: identity, credentials: credentials, validators: validators)
    }

    /// This request with `validators` among its fields.
    func revalidating(with validators: HTTPFields) -> OutgoingRequest {
        var request = request
        for field in validators { request.headerFields[field.name] = field.value }
        return OutgoingRequest(request: request, identity: identity, credentials: credentials, validators: validators)
    }
}

/// What makes two calls duplicates of each other for the duplicate gate: the same identity, made
/// for the same account with the same credentials; and both revalidations or neither, so that only
/// revalidations share a `304`.
struct DuplicateKey: Hashable, Sendable {
    let identity: String
    let account: String?
    let credentials: String?
    let isRevalidation: Bool
}
