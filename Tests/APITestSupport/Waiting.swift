import Testing

/// Polls `condition` until it holds, failing after a minute: it returns as soon as the condition
/// holds, and the bound is for a full parallel run on two cores, where the generator's tests can
/// hold both of the cooperative pool's threads for seconds, and for sanitizer runs.
public func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within a minute")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

extension Result {
    /// The error of a failure; nil for a success.
    public var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
