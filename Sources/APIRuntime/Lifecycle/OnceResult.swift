import NIOConcurrencyHelpers

/// A value produced once by one task and awaited by another; later results are ignored.
///
/// `@unchecked Sendable`: `state` is a `NIOLockedValueBox` whose lock guards the result and the
/// waiting continuation.
package final class OnceResult<Value: Sendable>: @unchecked Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Value, any Error>)
        case done(Result<Value, any Error>)
    }
    private let state = NIOLockedValueBox(State.pending)

    package init() {}

    package func resolve(_ result: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Value, any Error>? = state.withLockedValue { state in
            switch state {
            case .pending:
                state = .done(result)
                return nil
            case .waiting(let continuation):
                state = .done(result)
                return continuation
            case .done:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    package var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Value, any Error>? = state.withLockedValue { state in
                    switch state {
                    case .pending:
                        state = .waiting(continuation)
                        return nil
                    case .done(let result):
                        return result
                    case .waiting:
                        preconditionFailure("OnceResult awaited twice")
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}
