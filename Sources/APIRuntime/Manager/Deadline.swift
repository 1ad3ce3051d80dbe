/// Runs `operation` until `deadline`: past it the operation is cancelled and the call fails with
/// `.timeout(timeout)`. Every wait of a call (rate limits, token refreshes, retries, the wire, a
/// coalesced call) sits inside the one deadline its `start()` set.
func withDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant,
    timeout: Duration,
    api: String,
    operation: @escaping @Sendable () async throws(APIError) -> Value
) async throws(APIError) -> Value {
    let outcome = await withTaskGroup(of: DeadlineRace<Value>.self) { group in
        group.addTask { .operation(await Result(catching: operation)) }
        group.addTask {
            do {
                try await Task.sleep(until: deadline, clock: .continuous)
                return .deadline
            } catch {
                return .cancelled
            }
        }
        var first = await group.next() ?? .cancelled
        if case .cancelled = first {
            first = await group.next() ?? .cancelled
        }
        group.cancelAll()
        return first
    }
    switch outcome {
    case .operation(.success(let value)):
        return value
    case .operation(.failure(let error)) where ContinuousClock.now < deadline || error.reason == .timeout(timeout):
        throw error
    case .operation(.failure(let error)):
        throw APIError(api: api, reason: .timeout(timeout), underlying: error)
    case .deadline:
        throw APIError(api: api, reason: .timeout(timeout))
    case .cancelled:
        throw APIError(api: api, reason: .cancelled)
    }
}

/// Which side of `withDeadline`'s race ended first.
private enum DeadlineRace<Value: Sendable>: Sendable {
    case operation(Result<Value, APIError>)
    case deadline
    /// The caller cancelled the wait: the operation's own outcome says how it ended.
    case cancelled
}
