extension Duration {
    /// The longest the runtime waits for anything: a century. A deadline `now + duration` and a
    /// sleep in nanoseconds stay far from overflowing with it, where `.seconds(Int64.max)` would
    /// trap; a timeout that long already means "no limit".
    static let longestWait: Duration = .seconds(100 * 365 * 24 * 3600)

    /// This duration as the runtime waits it: at most `longestWait`, and never below zero.
    var clampedForWaiting: Duration {
        Swift.min(Swift.max(self, .zero), .longestWait)
    }

    /// This duration in seconds, fractions included, for the rate limiter's token arithmetic.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
