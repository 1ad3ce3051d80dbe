import NIOConcurrencyHelpers

/// What a manager's cache has removed while calls were in flight: a read that began before a
/// mutation's `invalidates:`, a log-out or a `remove` took replies away must not store its
/// older reply after it. Each removal is numbered; a call notes the number before it sends, and
/// stores its reply only if nothing it would be kept under (a tag, its account or one of its
/// credentials, its call, or everything) was removed after that number.
final class Invalidations: Sendable {
    private struct State {
        var count = 0
        /// When each tag (`tag:`), account (`account:`), credential (`credential:`) and call
        /// (`call:`) was last removed.
        var removed: [String: Int] = [:]
        /// When everything was last removed.
        var everything = 0
    }

    /// Guards the numbers.
    private let state = NIOLockedValueBox(State())

    /// The number of the latest removal: what a call notes before it sends.
    var mark: Int { state.withLockedValue { $0.count } }

    func removed(tag: String) { note("tag:" + tag) }
    func removed(account: String) { note("account:" + account) }
    func removed(credential: String) { note("credential:" + credential) }
    func removed(call: String) { note("call:" + call) }

    func removedEverything() {
        state.withLockedValue { state in
            state.count += 1
            state.everything = state.count
            // Each entry is older than this: the one number stands for them all.
            state.removed = [:]
        }
    }

    /// Whether a reply kept under `tags`, `account` and `call`, for a call that carried
    /// `credentials` (the digests of what a log-out may name them by), was removed after `mark`.
    func removedSince(_ mark: Int, tags: some Sequence<String>, account: String?, credentials: [String], call: String) -> Bool {
        state.withLockedValue { state in
            guard state.count > mark else { return false }
            if state.everything > mark { return true }
            func after(_ key: String) -> Bool { (state.removed[key] ?? 0) > mark }
            return after("call:" + call) || account.map { after("account:" + $0) } == true
                || credentials.contains { after("credential:" + $0) } || tags.contains { after("tag:" + $0) }
        }
    }

    private func note(_ key: String) {
        state.withLockedValue { state in
            state.count += 1
            state.removed[key] = state.count
        }
    }
}
