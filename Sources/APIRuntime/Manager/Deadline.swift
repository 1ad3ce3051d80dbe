extension APIManager {
    /// Runs `operation` in the current task, `call`, until `deadline`: past it the manager's
    /// timer cancels the task, and the call fails with `.timeout(timeout)`. Every wait of a call
    /// (rate limits, token refreshes, retries, the wire, a coalesced call) sits inside the one
    /// deadline its `start()` set, and ends when its task is cancelled.
    func withDeadline<Value: Sendable>(
        _ deadline: ContinuousClock.Instant,
        timeout: Duration,
        api: String,
        in call: CallTask,
        operation: () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let expiry = deadlines.schedule(deadline) { call.cancel() }
        defer { deadlines.remove(expiry) }
        do {
            return try await operation()
        } catch where ContinuousClock.now < deadline || error.reason == .timeout(timeout) {
            throw error
        } catch {
            // Whatever ended the call after its deadline (the cancelling, mostly) is the timeout.
            throw APIError(api: api, reason: .timeout(timeout), underlying: error)
        }
    }
}
