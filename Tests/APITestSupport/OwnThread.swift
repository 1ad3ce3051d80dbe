import Foundation
import NIOConcurrencyHelpers

/// Runs `work`, which blocks (SQLite waiting on another connection's lock, a thread that sleeps),
/// on a thread of its own, and waits for it without holding one of the cooperative pool's threads:
/// on two cores the pool has two, and a test that blocks one for a second starves the others'
/// servers and clients.
public func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}
