import APIRuntime
import Foundation
import NIOConcurrencyHelpers

/// A reply body that outlives its call's `start()` (an event stream), read by a task of its own so
/// that `api.cancel()` and `APIManager.cancel(tag:)` stop it wherever its reader is. The task
/// pauses while more than `bufferLimit` bytes wait unread, so a slow reader slows the stream
/// instead of filling memory; a reader that stops iterating stops the stream.
final class ReplyBody: ReplyStream, Sendable {
    static let bufferLimit = 1 << 20

    private struct State {
        var task: Task<Void, Never>?
        var cancelled = false
        var ended = false
        var endActions: [@Sendable () -> Void] = []
        /// Bytes handed to the reader's buffer and not yet read.
        var unread = 0
        /// The reading task, waiting for the reader to catch up.
        var waitingForRoom: CheckedContinuation<Void, Never>?
    }

    let api: String
    /// The longest line the stream may send (and, for Server-Sent Events, the longest event).
    let maxLineBytes: Int
    private let chunks: AsyncThrowingStream<Data, any Error>
    /// Guards the reading task, the end actions and the flow between the task and the reader.
    private let state = NIOLockedValueBox(State())

    /// Starts reading `body`; `api` names the call in errors.
    init(_ body: HTTPBody, api: String, maxLineBytes: Int = .max) {
        self.api = api
        self.maxLineBytes = maxLineBytes
        let (chunks, sink) = AsyncThrowingStream.makeStream(of: Data.self)
        self.chunks = chunks
        sink.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.cancel() }
        }
        let task = Task { [weak self] in
            // Ended (and so unregistered from the manager) before the reader can see the end.
            do {
                for try await chunk in body {
                    sink.yield(chunk)
                    await self?.waitForRoom(after: chunk.count)
                }
                try Task.checkCancellation()
                self?.end()
                sink.finish()
            } catch {
                let failure = self?.apiError(error) ?? error
                self?.end()
                sink.finish(throwing: failure)
            }
        }
        let cancelled = state.withLockedValue { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let (task, waiter) = state.withLockedValue { state in
            state.cancelled = true
            defer { state.waitingForRoom = nil }
            return (state.task, state.waitingForRoom)
        }
        task?.cancel()
        waiter?.resume()
    }

    func onEnd(_ action: @escaping @Sendable () -> Void) {
        let ended = state.withLockedValue { state in
            if !state.ended { state.endActions.append(action) }
            return state.ended
        }
        if ended { action() }
    }

    private func end() {
        let actions = state.withLockedValue { state in
            state.ended = true
            defer { state.endActions = [] }
            return state.endActions
        }
        for action in actions { action() }
    }

    private func waitForRoom(after count: Int) async {
        await withCheckedContinuation { continuation in
            let proceed = state.withLockedValue { state in
                state.unread += count
                guard state.unread > Self.bufferLimit, !state.cancelled else { return true }
                state.waitingForRoom = continuation
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    /// The reader took `count` bytes.
    private func read(_ count: Int) {
        let waiter = state.withLockedValue { state in
            state.unread -= count
            guard state.unread <= Self.bufferLimit / 4 else { return nil as CheckedContinuation<Void, Never>? }
            defer { state.waitingForRoom = nil }
            return state.waitingForRoom
        }
        waiter?.resume()
    }

    private func apiError(_ error: any Error) -> APIError {
        // `cancel()` cancels the reading task, so a cancelled stream fails as `.cancelled`.
        APIError.wrapping(error, api: api) { error in
            APIError(api: api, reason: .transport(message: "the stream broke off: \(error)"), underlying: error)
        }
    }

    /// The error that ends a stream whose line (or event) outgrew `maxLineBytes`.
    func lineTooLong(_ what: String = "a line") -> APIError {
        APIError(api: api, reason: .invalidResponse(message: "\(what) of the stream is longer than \(maxLineBytes) bytes"))
    }

    /// The body's bytes for a parser: read once, by one reader.
    var bytes: Bytes { Bytes(body: self) }

    struct Bytes: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>
        let body: ReplyBody

        struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: AsyncThrowingStream<Data, any Error>.AsyncIterator
            let body: ReplyBody
            /// Bytes since the last line break: a parser buffers them until the line ends.
            var lineLength = 0

            mutating func next() async throws -> ArraySlice<UInt8>? {
                guard let chunk = try await chunks.next() else {
                    // A reader cancelled mid-stream must not see the end of a whole stream.
                    if Task.isCancelled { throw APIError(api: body.api, reason: .cancelled) }
                    return nil
                }
                body.read(chunk.count)
                let lastBreak = chunk.lastIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
                lineLength = lastBreak.map { chunk.endIndex - $0 - 1 } ?? lineLength + chunk.count
                if lineLength > body.maxLineBytes {
                    body.cancel()
                    throw body.lineTooLong()
                }
                return ArraySlice(chunk)
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(chunks: body.chunks.makeAsyncIterator(), body: body)
        }
    }
}

/// Held by a stream over a reply body and by its iterators: when the last of them goes (a loop
/// left early, a stream dropped unread), the body is cancelled rather than left receiving for
/// no one, and its connection is closed.
final class BodyReader: Sendable {
    let body: ReplyBody

    init(_ body: ReplyBody) {
        self.body = body
    }

    deinit {
        body.cancel()
    }
}
