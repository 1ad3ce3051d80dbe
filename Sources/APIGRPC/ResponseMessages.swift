import APIRuntime
import AsyncAlgorithms
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers

/// What a stream fails with when its deadline passes; the reader turns it into `.timeout` with
/// the call's whole time limit, which only the manager knows.
package struct StreamDeadlinePassed: Error {
    package init() {}
}

/// The messages of a streaming reply as they arrive, serialized, then its trailers. The transport
/// feeds it; `send` waits until the reader has taken the previous message, so a slow reader slows
/// the server down (through HTTP/2 flow control) instead of filling memory.
///
/// `@unchecked Sendable`: `channel` is Sendable; `state` (trailers, the producing task) is a
/// `NIOLockedValueBox` whose lock guards every access.
public final class ResponseMessages: ReplyStream, @unchecked Sendable {
    package let channel = AsyncThrowingChannel<Data, any Error>()
    private struct State {
        var trailers: HTTPFields?
        /// The call's whole time limit, which a stream's `.timeout` error reports.
        var callTimeout: Duration?
        var cancel: (@Sendable () -> Void)?
        var cancelled = false
        var ended = false
        var onEnd: [@Sendable () -> Void] = []
    }
    private let state = NIOLockedValueBox(State())

    package init(callTimeout: Duration? = nil) {
        state.withLockedValue { $0.callTimeout = callTimeout }
    }

    package func onEnd(_ action: @escaping @Sendable () -> Void) {
        let endedAlready = state.withLockedValue { state in
            if !state.ended { state.onEnd.append(action) }
            return state.ended
        }
        if endedAlready { action() }
    }

    /// Marks the stream ended and runs what waits for that, once.
    private func end() {
        let actions = state.withLockedValue { state in
            defer {
                state.ended = true
                state.onEnd = []
            }
            return state.ended ? [] : state.onEnd
        }
        for action in actions { action() }
    }

    /// Sets what stops the call; runs it at once when the stream was cancelled before.
    package func onCancel(_ action: @escaping @Sendable () -> Void) {
        let cancelledAlready = state.withLockedValue { state in
            state.cancel = action
            return state.cancelled
        }
        if cancelledAlready { action() }
    }

    /// Stops the call: the server sees it cancelled, the reader sees the stream end with `.cancelled`.
    public func cancel() {
        let action = state.withLockedValue { state in
            state.cancelled = true
            return state.cancel
        }
        action?()
    }

    package var isCancelled: Bool { state.withLockedValue { $0.cancelled } }

    // The stream is marked ended (and so unregistered from the manager) before its reader can
    // see the end: a reader that then asks the manager finds it gone.
    package func finish(trailers: HTTPFields) {
        state.withLockedValue { $0.trailers = trailers }
        end()
        channel.finish()
    }

    package func fail(_ error: any Error, trailers: HTTPFields) {
        state.withLockedValue { $0.trailers = trailers }
        end()
        channel.fail(error)
    }

    var callTimeout: Duration? { state.withLockedValue { $0.callTimeout } }

    /// The trailing metadata, once the stream has ended.
    package var trailers: HTTPFields? { state.withLockedValue { $0.trailers } }
}
