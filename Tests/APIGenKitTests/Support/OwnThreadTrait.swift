import Foundation
import Testing

/// Runs a test on a thread of its own instead of the cooperative pool.
///
/// Swift Testing calls every test, synchronous or not, from the cooperative pool, which has one
/// thread per core: two on a two-core machine. The generator's tests block the thread they run on
/// for seconds (they wait for an `apigen` process, run protoc, import a long document), and the
/// tests on the wire run in the same process: two blocked pool threads leave their loopback
/// servers and clients no thread at all, and their calls time out. This trait gives each test it
/// marks a thread to block; half as many of them run at once as the machine has cores.
struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    /// Each test case gets a thread; the suite itself needs none.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return try await function() }
        await Self.turns.enter()
        let executor = ThreadExecutor()
        var failure: (any Error)?
        do {
            // A task of its own that starts on the executor: its first job runs there, whereas
            // `withTaskExecutorPreference` around the test may let it begin where the caller runs.
            // The task inherits the test's task-local values; the test waits for it, so the
            // closure does not outlive this call.
            try await withoutActuallyEscaping(function) { test in
                let task = Task(executorPreference: executor) { try await ThreadExecutor.$current.withValue(executor) { try await test() } }
                try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            }
        } catch {
            failure = error
        }
        executor.stop()
        await Self.turns.leave()
        if let failure { throw failure }
    }

    /// Half the cores: the generator's tests are busy while they block, and the wire tests in
    /// the same process time their deadlines.
    private static let turns = Turns(count: ProcessInfo.processInfo.activeProcessorCount / 2)
}

/// At most `count` holders at a time; the others wait in order, without holding a thread.
private actor Turns {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        free = max(1, count)
    }

    func enter() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test of the suite (or the one test) runs on a thread of its own: for tests that block
    /// their thread.
    static var ownThread: Self { OwnThreadTrait() }
}

/// A task executor that runs the jobs it is given in order on one thread of its own.
///
/// The thread starts with the first job and, once `stop()` is called, ends when it has no job
/// left; a job that comes later (from a task that outlived the test) starts a thread again.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs`, `stopped` and `threadRunning`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false
    private var threadRunning = false

    /// The name of the executor's thread, which tests can check.
    static let threadName = "test thread"

    /// The executor the current test was given.
    @TaskLocal static var current: ThreadExecutor?

    /// Whether the current task runs on the executor its test was given: on its thread, or with
    /// that executor as its preference. The preference is what the trait sets; where a job runs
    /// is the runtime's choice, and in two full runs on a loaded machine (one in CI) a test's job
    /// ran on a thread of the global executor (`…oot.default-qos`) despite it, which 15 runs of
    /// these tests alone never showed.
    static var isCurrentTestExecutor: Bool {
        if Thread.current.name == threadName { return true }
        guard let current else { return false }
        return withUnsafeCurrentTask { $0?.unownedTaskExecutor == current.asUnownedTaskExecutor() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        if !threadRunning {
            threadRunning = true
            Thread.detachNewThread { [self] in run() }
        }
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once it has run every job given so far.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        Thread.current.name = Self.threadName
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                threadRunning = false
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
