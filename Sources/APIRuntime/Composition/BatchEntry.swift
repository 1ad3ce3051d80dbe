import NIOConcurrencyHelpers

/// One call of a batch (`APIBatch`, `JSONRPCBatch`): its result is there once the batch has run.
public final class BatchEntry<Response: Sendable>: Sendable {
    /// Guards the result, written once when the batch delivers it.
    private let outcome = NIOLockedValueBox<Result<Response, APIError>?>(nil)
    let api: String

    init(api: String) {
        self.api = api
    }

    /// The call's result; `.invalidRequest` before the batch has run.
    public var result: Result<Response, APIError> {
        outcome.withLockedValue { $0 } ?? .failure(APIError(api: api, reason: .invalidRequest(message: "the batch has not been sent")))
    }

    /// The call's value, or its error.
    public func get() throws(APIError) -> Response {
        try result.get()
    }

    func deliver(_ result: Result<Response, APIError>) {
        outcome.withLockedValue { $0 = result }
    }
}
