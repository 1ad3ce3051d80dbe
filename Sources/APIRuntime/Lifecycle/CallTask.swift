import NIOConcurrencyHelpers

/// The task a call runs in, as a timer or a `cancel()` reaches it: the task's handle arrives
/// after the task has started (one started immediately runs before its creator gets it back), and
/// a cancellation that comes first is kept until then.
final class CallTask: Sendable {
    /// Guards the handle's cancel and whether cancelling was asked for.
    private let state = NIOLockedValueBox<(cancel: (@Sendable () -> Void)?, cancelled: Bool)>((nil, false))

    func attach(_ cancel: @escaping @Sendable () -> Void) {
        let cancelNow = state.withLockedValue { state in
            state.cancel = cancel
            return state.cancelled
        }
        if cancelNow { cancel() }
    }

    func cancel() {
        let cancel = state.withLockedValue { state in
            state.cancelled = true
            return state.cancel
        }
        cancel?()
    }
}

extension Task where Failure == Never {
    /// A task that, where the platform has it (Swift 6.2's `Task.immediate`), starts at once on the
    /// caller's thread and runs until it first waits: a call that never waits costs no thread switch.
    static func immediateIfAvailable(_ operation: sending @escaping @isolated(any) () async -> Success) -> Task {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }
}
