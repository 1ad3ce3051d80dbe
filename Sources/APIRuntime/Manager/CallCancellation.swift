import NIOConcurrencyHelpers

/// Cancels one call from outside the task it runs in: `BaseAPI.cancel()` and
/// `APIManager.cancel(tag:)`.
///
/// A call runs in its caller's task. It used to run in a task of its own, so that those two could
/// cancel it without cancelling the caller, but when that task ended the caller had to be woken on
/// another thread: a second hand-off a call, 75 of the 148 µs the manager cost over a bare wait
/// (BENCHMARKS.md §4). Instead each call carries one of these (`current`, a task-local) and every
/// wait on its path — a retry's pause, a rate limit's wait, a coalesced call, a transport that
/// observes it — goes through `withCallCancellationHandler`, which it cancels as the task's own
/// cancellation would. A transport that does not (AsyncHTTPClient's async API, grpc-swift: only a
/// task's cancellation stops them) runs each `send` in a task of its own (`inTask`). An
/// interceptor's own waits see it at the call's next wait.
public final class CallCancellation: Sendable {
    /// The call the current task is running; nil outside one, and inside work the call shares with
    /// others (a coalesced call's request), which one caller must not cancel.
    @TaskLocal static var current: CallCancellation?

    private struct State {
        var isCancelled = false
        /// The handler of the wait the call is in; a call waits in one place at a time, unless an
        /// interceptor or a transport nests waits, whose handlers go to `nested`. (One slot and an
        /// empty dictionary: a dictionary of one was an allocation a call.)
        var handler: (id: UInt64, run: @Sendable () -> Void)?
        var nested: [UInt64: @Sendable () -> Void] = [:]
        var nextHandler: UInt64 = 0
    }

    /// Guards whether the call is cancelled and the handlers of the waits it is in.
    private let state = NIOLockedValueBox(State())

    init() {}

    /// Whether the current task, or the call it runs, has been cancelled.
    public static var isCancelled: Bool {
        Task.isCancelled || current?.isCancelled == true
    }

    var isCancelled: Bool { state.withLockedValue { $0.isCancelled } }

    /// Cancels the call: runs the handlers of its waits now, and of any later wait at its start.
    func cancel() {
        let handlers = state.withLockedValue { state -> [@Sendable () -> Void] in
            guard !state.isCancelled else { return [] }
            state.isCancelled = true
            defer {
                state.handler = nil
                state.nested = [:]
            }
            return (state.handler.map { [$0.run] } ?? []) + state.nested.values
        }
        for handler in handlers { handler() }
    }

    /// Keeps `handler` until `take`; runs it at once instead (and returns nil) when already cancelled.
    fileprivate func add(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        let id = state.withLockedValue { state -> UInt64? in
            guard !state.isCancelled else { return nil }
            defer { state.nextHandler += 1 }
            if state.handler == nil {
                state.handler = (state.nextHandler, handler)
            } else {
                state.nested[state.nextHandler] = handler
            }
            return state.nextHandler
        }
        if id == nil { handler() }
        return id
    }

    /// Removes a handler and returns it, unless `cancel` or an earlier `take` already has: whoever
    /// takes it runs it, so it runs once however many cancellations race.
    fileprivate func take(_ id: UInt64) -> (@Sendable () -> Void)? {
        state.withLockedValue { state in
            if let handler = state.handler, handler.id == id {
                state.handler = nil
                return handler.run
            }
            return state.nested.removeValue(forKey: id)
        }
    }

    /// `Task.sleep`, also cut short when the call is cancelled. In a task of its own: only slow
    /// paths sleep (a retry's pause, a rate limit's wait, a stub's delay).
    static func sleep(for duration: Duration) async throws {
        guard current != nil else { return try await Task.sleep(for: duration) }
        let sleeper = Task { try await Task.sleep(for: duration) }
        try await withCallCancellationHandler {
            try await sleeper.value
        } onCancel: {
            sleeper.cancel()
        }
    }

    /// Runs `operation` in a task of its own that cancelling the call cancels: for a wait that
    /// only a task's cancellation can stop (a transport that does not observe calls' cancellation).
    static func inTask<Value: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> Value
    ) async -> Value {
        let task = Task.immediateIfAvailable(operation)
        return await withCallCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }
}

/// `withTaskCancellationHandler`, whose `onCancel` also runs when the call the current task runs
/// is cancelled by `BaseAPI.cancel()` or `APIManager.cancel(tag:)` (at once if it already was).
/// A transport that waits through it can say `observesCallCancellation`.
public func withCallCancellationHandler<T>(
    operation: () async throws -> T,
    onCancel handler: @escaping @Sendable () -> Void,
    isolation: isolated (any Actor)? = #isolation
) async rethrows -> T {
    guard let call = CallCancellation.current else {
        return try await withTaskCancellationHandler(operation: operation, onCancel: handler, isolation: isolation)
    }
    // Both the task and the call may be cancelled; the handler runs once, by whichever takes it
    // from the call first (nil: the call was cancelled already, and `add` ran it).
    let registration = call.add(handler)
    defer { if let registration { _ = call.take(registration) } }
    return try await withTaskCancellationHandler(operation: operation, onCancel: {
        if let registration { call.take(registration)?() }
    }, isolation: isolation)
}

extension Task where Failure == Never {
    /// A task that, where the platform has it (Swift 6.2's `Task.immediate`), starts at once on the
    /// caller's thread and runs until it first waits: one that never waits costs no thread switch.
    static func immediateIfAvailable(_ operation: sending @escaping @isolated(any) () async -> Success) -> Task {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }
}
