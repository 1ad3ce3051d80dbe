/// Values by key, each with a cost in bytes, the total kept under a bound: past it, the least
/// recently used values go first. Reading a value or storing it again makes it the most recent.
/// Every operation takes constant time (a doubly linked list threaded through the dictionary).
///
/// A value type with no lock of its own; its owner guards it.
struct LeastRecentlyUsed<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var cost: Int
        /// The next older and next newer keys.
        var older: String?
        var newer: String?
    }

    /// The bound on `totalCost`.
    let maxCost: Int
    private(set) var totalCost = 0
    private var entries: [String: Entry] = [:]
    private var oldest: String?
    private var newest: String?

    init(maxCost: Int) {
        self.maxCost = max(0, maxCost)
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// The keys from the most recently used to the least.
    var keysByRecency: [String] {
        var keys: [String] = []
        var key = newest
        while let current = key {
            keys.append(current)
            key = entries[current]?.older
        }
        return keys
    }

    /// The value for `key`, which becomes the most recent.
    mutating func value(for key: String) -> Value? {
        guard let entry = entries[key] else { return nil }
        moveToNewest(key)
        return entry.value
    }

    /// The value for `key`, its recency unchanged.
    func peek(_ key: String) -> Value? {
        entries[key]?.value
    }

    /// Stores `value` for `key` as the most recent and returns the values dropped to stay within
    /// the bound. A value that costs more than the bound on its own is not stored (and any
    /// earlier value for its key is removed): it is returned.
    @discardableResult
    mutating func set(_ value: Value, cost: Int, for key: String) -> [(key: String, value: Value)] {
        var dropped: [(key: String, value: Value)] = []
        remove(key)
        guard cost <= maxCost else { return [(key, value)] }
        entries[key] = Entry(value: value, cost: cost, older: newest, newer: nil)
        if let newest { entries[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        totalCost += cost
        while totalCost > maxCost, let victim = oldest, victim != key, let value = remove(victim) {
            dropped.append((victim, value))
        }
        return dropped
    }

    /// Removes the value for `key`, returning it.
    @discardableResult
    mutating func remove(_ key: String) -> Value? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
        totalCost -= entry.cost
        return entry.value
    }

    /// Removes every value `shouldRemove` picks, returning how many.
    @discardableResult
    mutating func removeAll(where shouldRemove: (String, Value) -> Bool) -> Int {
        let keys = entries.compactMap { shouldRemove($0.key, $0.value.value) ? $0.key : nil }
        for key in keys { remove(key) }
        return keys.count
    }

    /// Calls `body` with each key and value, in no order.
    func forEach(_ body: (String, Value) -> Void) {
        for (key, entry) in entries { body(key, entry.value) }
    }

    private mutating func moveToNewest(_ key: String) {
        guard newest != key, let entry = entries[key] else { return }
        // Unlink, then link at the newest end.
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older }
        entries[key]?.older = newest
        entries[key]?.newer = nil
        if let newest { entries[newest]?.newer = key }
        newest = key
    }
}
