import NIOConcurrencyHelpers

/// One transport per session key (scheme, host, port), created on first use and kept until shutdown.
final class SessionCache: Sendable {
    typealias Factory = @Sendable (SessionKey, SessionSettings) -> any HTTPTransport

    private struct State {
        var sessions: [SessionKey: any HTTPTransport] = [:]
        var isShutDown = false
    }

    private let factory: Factory
    private let state = NIOLockedValueBox(State())

    init(factory: @escaping Factory) {
        self.factory = factory
    }

    /// The session for `key`, created with `settings` if there is none yet; nil once shut down.
    func transport(for key: SessionKey, settings: SessionSettings) -> (any HTTPTransport)? {
        state.withLockedValue { state in
            guard !state.isShutDown else { return nil }
            if let existing = state.sessions[key] { return existing }
            // Creating a transport does no I/O, so doing it under the lock is cheap and never races.
            let transport = factory(key, settings)
            state.sessions[key] = transport
            return transport
        }
    }

    var count: Int { state.withLockedValue { $0.sessions.count } }

    /// Stops handing out sessions and shuts every one down after its calls in flight finish.
    func shutdown() async {
        let sessions = state.withLockedValue { state in
            state.isShutDown = true
            defer { state.sessions = [:] }
            return Array(state.sessions.values)
        }
        await withTaskGroup(of: Void.self) { group in
            for session in sessions {
                group.addTask { await session.shutdown() }
            }
        }
    }
}
