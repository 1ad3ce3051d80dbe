import NIOConcurrencyHelpers

/// The calls a manager is running, and the reply streams still open, with their tags, so that
/// `APIManager.cancel(tag:)` and `cancelAll()` can cancel them as a group and `shutdown` can wait
/// for them.
final class RunningCalls: Sendable {
    private struct Entry {
        var tags: Set<String>
        var cancel: @Sendable () -> Void
    }

    private struct Table {
        var next: UInt64 = 0
        var running: [UInt64: Entry] = [:]
        /// Set by `close()`: the manager takes no new calls.
        var isClosed = false
        /// Who waits in `idle()` for the table to empty.
        var idleWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    /// Guards the table of running calls.
    private let table = NIOLockedValueBox(Table())

    /// Runs `work` in a task of its own, registered under `tags` until it ends, so that
    /// `cancel(tag:)` and `cancelAll()` can cancel it without cancelling its caller; cancelling
    /// the caller cancels it too. `register` hands the task's cancel to whoever else may cancel it
    /// (the API instance's `cancel()`) and returns how to take it back.
    func run<Value: Sendable>(
        tags: Set<String>,
        registering register: (_ cancel: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? = { _ in nil },
        _ work: @escaping @Sendable (CallTask) async -> Value
    ) async -> Value {
        let call = CallTask()
        let task = Task.immediateIfAvailable { await work(call) }
        call.attach { task.cancel() }
        let id = add(tags: tags, cancel: call.cancel)
        let unregister = register(call.cancel)
        defer {
            remove(id)
            unregister?()
        }
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            call.cancel()
        }
    }

    func add(tags: Set<String>, cancel: @escaping @Sendable () -> Void) -> UInt64 {
        table.withLockedValue { table in
            defer { table.next += 1 }
            table.running[table.next] = Entry(tags: tags, cancel: cancel)
            return table.next
        }
    }

    func remove(_ id: UInt64) {
        let waiters = table.withLockedValue { table -> [CheckedContinuation<Void, Never>] in
            table.running.removeValue(forKey: id)
            guard table.running.isEmpty else { return [] }
            defer { table.idleWaiters = [:] }
            return Array(table.idleWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Cancels the calls carrying `tag`, or every call when `tag` is nil; returns how many.
    @discardableResult
    func cancel(tag: String?) -> Int {
        let matching = table.withLockedValue { table in
            table.running.values.filter { tag.map($0.tags.contains) ?? true }.map(\.cancel)
        }
        for cancel in matching { cancel() }
        return matching.count
    }

    /// Refuses new calls from now on (`isClosed`).
    func close() {
        table.withLockedValue { $0.isClosed = true }
    }

    var isClosed: Bool { table.withLockedValue { $0.isClosed } }

    /// How many calls are running.
    var count: Int { table.withLockedValue { $0.running.count } }

    /// Returns once no call is running, or at once when the waiting task is cancelled.
    func idle() async {
        let id = table.withLockedValue { table in
            defer { table.next += 1 }
            return table.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // A cancellation that came before this point finds no waiter to resume; the
                // task's flag, read under the same lock, tells.
                let resumeNow = table.withLockedValue { table in
                    if table.running.isEmpty || Task.isCancelled { return true }
                    table.idleWaiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            table.withLockedValue { $0.idleWaiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Waits for no call to be running, for at most `limit` on `clock`; returns whether none is.
    func idle(within limit: Duration, on clock: any APIClock) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await idle()
                return true
            }
            group.addTask {
                try? await clock.sleep(for: limit)
                return false
            }
            _ = await group.next()
            group.cancelAll()
            return count == 0
        }
    }
}
