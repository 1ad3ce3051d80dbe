import NIOConcurrencyHelpers

/// Work to do once when something ends: run explicitly, or at the latest when the last reference
/// to it goes away (a reply body nobody reads any more).
final class EndAction: Sendable {
    /// Guards the action, taken on its one run.
    private let action: NIOLockedValueBox<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = NIOLockedValueBox(action)
    }

    func run() {
        action.withLockedValue { action in
            defer { action = nil }
            return action
        }?()
    }

    deinit {
        run()
    }
}
