import NIOConcurrencyHelpers

/// The calls a manager is running, and the reply streams still open, with their tags, so that
/// `APIManager.cancel(tag:)` and `cancelAll()` can cancel them as a group.
final class RunningCalls: Sendable {
    private struct Entry {
        var tags: Set<String>
        var cancel: @Sendable () -> Void
    }

    /// Guards the table of running calls.
    private let entries = NIOLockedValueBox<(next: UInt64, running: [UInt64: Entry])>((0, [:]))

    func add(tags: Set<String>, cancel: @escaping @Sendable () -> Void) -> UInt64 {
        entries.withLockedValue { entries in
            defer { entries.next += 1 }
            entries.running[entries.next] = Entry(tags: tags, cancel: cancel)
            return entries.next
        }
    }

    func remove(_ id: UInt64) {
        _ = entries.withLockedValue { $0.running.removeValue(forKey: id) }
    }

    /// Cancels the calls carrying `tag`, or every call when `tag` is nil; returns how many.
    @discardableResult
    func cancel(tag: String?) -> Int {
        let matching = entries.withLockedValue { entries in
            entries.running.values.filter { tag.map($0.tags.contains) ?? true }.map(\.cancel)
        }
        for cancel in matching { cancel() }
        return matching.count
    }
}
