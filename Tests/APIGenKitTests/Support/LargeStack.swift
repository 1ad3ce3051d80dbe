import Foundation

/// Runs `body` on a thread of its own whose stack is `megabytes` large, and waits for it.
///
/// For tests whose input is nested as deeply as apigen accepts: OpenAPIKit and Yams decode a
/// nested schema with a few dozen frames a level, which a debug build makes large, and a test's
/// job may run on a thread of the global executor, whose stack is the system's default for new
/// threads (smaller than the main thread's, and smaller still where `ulimit -s` is low).
/// `apigen` itself runs these on its main thread.
func onLargeStack<T: Sendable>(megabytes: Int = 64, _ body: @escaping @Sendable () throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.set(Result { try body() })
        done.signal()
    }
    thread.stackSize = megabytes << 20
    thread.start()
    done.wait()
    return try outcome.result!.get()
}

/// The result a thread hands back; `lock` guards `stored`.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<T, any Error>?

    func set(_ result: Result<T, any Error>) {
        lock.withLock { stored = result }
    }

    var result: Result<T, any Error>? {
        lock.withLock { stored }
    }
}
