import Testing

/// Polls `condition` until it holds, failing after ten seconds (generous for sanitizer runs on a
/// loaded machine; it returns as soon as the condition holds).
func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 10 seconds")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
