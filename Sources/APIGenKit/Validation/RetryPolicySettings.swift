/// The bounds of `retry:` in manifests, the same the runtime's `RetryPolicy` uses.
enum RetryPolicySettings {
    /// More attempts than this turn a slow outage into a flood of requests.
    static let attemptLimit = 10
    /// `retry: {}` with no `attempts:` means three attempts in all.
    static let defaultAttempts = 3
}
