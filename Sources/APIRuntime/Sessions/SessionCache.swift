import NIOConcurrencyHelpers

/// One transport per session key (scheme, host, port), created on first use. At most `capacity`
/// stay open: past that the least recently used is dropped from the cache and shut down as soon
/// as its calls in flight have finished, never in the middle of one.
final class SessionCache: Sendable {
    /// A session lent to one call, given back with `release`.
    struct Lease: Sendable {
        let key: SessionKey
        let transport: any CallTransport
        let generation: UInt64
    }

    private struct Session {
        var transport: any CallTransport
        var generation: UInt64
        var inFlight = 0
        var lastUsed: UInt64
    }

    private struct State {
        var sessions: [SessionKey: Session] = [:]
        /// Evicted sessions still finishing calls, by generation.
        var closing: [UInt64: Session] = [:]
        var clock: UInt64 = 0
        var isShutDown = false
    }

    private let capacity: Int
    private let configuration: APIManager.Configuration
    /// Guards every session, open or closing.
    private let state = NIOLockedValueBox(State())

    init(capacity: Int, configuration: APIManager.Configuration) {
        self.capacity = max(1, capacity)
        self.configuration = configuration
    }

    /// The session for `key`, created by `factory` with `settings` if there is none; nil once
    /// shut down. Throws what the factory throws.
    func acquire(_ key: SessionKey, settings: SessionSettings, factory: TransportFactory) throws -> Lease? {
        let (lease, evicted): (Lease?, (any CallTransport)?) = try state.withLockedValue { state in
            guard !state.isShutDown else { return (nil, nil) }
            state.clock += 1
            // One hash lookup a call, the entry changed in place.
            if let index = state.sessions.index(forKey: key) {
                state.sessions.values[index].inFlight += 1
                state.sessions.values[index].lastUsed = state.clock
                let session = state.sessions.values[index]
                return (Lease(key: key, transport: session.transport, generation: session.generation), nil)
            }
            // Creating a transport does no I/O, so doing it under the lock is cheap and never races.
            let session = Session(transport: try factory.make(key, settings, configuration), generation: state.clock, inFlight: 1, lastUsed: state.clock)
            state.sessions[key] = session
            var idle: (any CallTransport)?
            if state.sessions.count > capacity, let (oldest, victim) = state.sessions.filter({ $0.key != key }).min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                state.sessions[oldest] = nil
                if victim.inFlight == 0 { idle = victim.transport } else { state.closing[victim.generation] = victim }
            }
            return (Lease(key: key, transport: session.transport, generation: session.generation), idle)
        }
        if let evicted { Task { await evicted.shutdown() } }
        return lease
    }

    /// Gives a session back; an evicted one shuts down when its last call has given it back.
    func release(_ lease: Lease) {
        let finished: (any CallTransport)? = state.withLockedValue { state in
            if let index = state.sessions.index(forKey: lease.key), state.sessions.values[index].generation == lease.generation {
                state.sessions.values[index].inFlight -= 1
                return nil
            }
            guard var session = state.closing[lease.generation] else { return nil }
            session.inFlight -= 1
            if session.inFlight > 0 {
                state.closing[lease.generation] = session
                return nil
            }
            state.closing[lease.generation] = nil
            return session.transport
        }
        if let finished { Task { await finished.shutdown() } }
    }

    /// Sessions open for new calls.
    var count: Int { state.withLockedValue { $0.sessions.count } }

    /// Stops handing out sessions and shuts every one down after its calls in flight finish.
    func shutdown() async {
        let sessions = state.withLockedValue { state in
            state.isShutDown = true
            defer {
                state.sessions = [:]
                state.closing = [:]
            }
            return state.sessions.values.map(\.transport) + state.closing.values.map(\.transport)
        }
        await withTaskGroup(of: Void.self) { group in
            for session in sessions {
                group.addTask { await session.shutdown() }
            }
        }
    }
}
