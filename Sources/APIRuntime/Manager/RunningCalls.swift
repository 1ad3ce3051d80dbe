import NIOConcurrencyHelpers

/// The calls a manager is running, with their tags, so they can be cancelled as a group.
final class RunningCalls: Sendable {
    private struct Entry {
        var tags: Set<String>
        var call: CallCancellation
    }

    /// Guards the table of running calls.
    private let entries = NIOLockedValueBox<(next: UInt64, running: [UInt64: Entry])>((0, [:]))

    func add(tags: Set<String>, _ call: CallCancellation) -> UInt64 {
        entries.withLockedValue { entries in
            defer { entries.next += 1 }
            entries.running[entries.next] = Entry(tags: tags, call: call)
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
            entries.running.values.filter { tag == nil || $0.tags.contains(tag!) }.map(\.call)
        }
        for call in matching { call.cancel() }
        return matching.count
    }
}
