/// Holds each call to its one deadline: past it the manager's timer cancels the call's task, and
/// the call fails with `.timeout(timeout)`. Every wait of a call (rate limits, token refreshes,
/// retry pauses, the wire, a coalesced call) sits inside it and ends when the task is cancelled.
struct Deadlines: Sendable {
    let clock: any APIClock
    let timer: DeadlineTimer

    init(clock: any APIClock) {
        self.clock = clock
        self.timer = DeadlineTimer(clock: clock)
    }

    /// Runs `operation` in the current task, `call`, until `deadline`.
    func enforce<Value: Sendable>(
        _ deadline: ContinuousClock.Instant,
        timeout: Duration,
        api: String,
        on call: CallTask,
        operation: () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let expiry = timer.schedule(deadline) { call.cancel() }
        defer { timer.remove(expiry) }
        do {
            return try await operation()
        } catch where clock.now < deadline || error.reason == .timeout(timeout) {
            throw error
        } catch {
            // Whatever ended the call after its deadline (the cancelling, mostly) is the timeout.
            throw APIError(api: api, reason: .timeout(timeout), underlying: error)
        }
    }
}
