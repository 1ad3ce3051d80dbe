/// What a store has removed while calls were in flight: a read that began before a mutation's
/// `invalidates:`, a log-out or a `remove` took replies away must not store its older reply
/// after it. Each removal is numbered; a call notes the latest number (its mark) before it sends,
/// and its reply is stored only if nothing it would be kept under (its call, a tag, its account,
/// one of its credentials, or everything) was removed after that number.
///
/// The log keeps the names of the latest `limit` removals. A mark older than the removals it has
/// forgotten counts as removed: such a call's reply is not stored, which costs a miss later and
/// never brings back what was removed.
package struct RemovalLog: Sendable {
    /// The number of the latest removal.
    private(set) var latest = 0
    /// When each name was last removed: `tag:`, `account:`, `credential:` and `call:` names.
    private var removed: [String: Int] = [:]
    /// The latest removal whose names were forgotten, or of everything.
    private var forgotten = 0
    package static let limit = 1024

    /// A removal of every reply kept under one of `names`.
    mutating func note(_ names: [String]) {
        latest += 1
        for name in names { removed[name] = latest }
        guard removed.count > Self.limit else { return }
        // The older half goes; its numbers are remembered as one.
        let kept = removed.values.sorted().suffix(Self.limit / 2).first ?? latest
        forgotten = max(forgotten, kept - 1)
        removed = removed.filter { $0.value >= kept }
    }

    /// A removal of every reply: it stands for every name before it.
    mutating func noteEverything() {
        latest += 1
        forgotten = latest
        removed = [:]
    }

    /// Whether a reply kept under any of `names` was removed after `mark`. A mark past the latest
    /// number is of a log that has since started again (a file made anew), and counts as removed.
    func removed(since mark: Int, anyOf names: [String]) -> Bool {
        guard latest != mark else { return false }
        if mark > latest { return true }
        if forgotten > mark { return true }
        return names.contains { (removed[$0] ?? 0) > mark }
    }

    /// The names a reply is kept under, as removals name them.
    package static func names(call: String, tags: some Sequence<String>, account: String?, credentials: [String]) -> [String] {
        ["call:" + call] + tags.map { "tag:" + $0 } + (account.map { ["account:" + $0] } ?? []) + credentials.map { "credential:" + $0 }
    }
}
