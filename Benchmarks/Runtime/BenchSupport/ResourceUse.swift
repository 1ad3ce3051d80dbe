import AllocationCounter
import Foundation

/// What this process has used so far: CPU time and context switches (`getrusage`, summed over all
/// its threads). The difference of two readings is what the work between them cost.
public struct ResourceUse: Sendable {
    /// User and system CPU time, in seconds.
    public var cpuSeconds: Double
    /// Switches where a thread gave up its core to wait (a lock, a futex, `epoll_wait`): each is a
    /// hop from one thread to another that the work asked for.
    public var voluntarySwitches: Int
    /// Switches where the kernel took a core from a thread that could have run on.
    public var involuntarySwitches: Int

    public static func now() -> ResourceUse {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ResourceUse(
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            voluntarySwitches: Int(usage.ru_nvcsw),
            involuntarySwitches: Int(usage.ru_nivcsw)
        )
    }

    public static func - (after: ResourceUse, before: ResourceUse) -> ResourceUse {
        ResourceUse(
            cpuSeconds: after.cpuSeconds - before.cpuSeconds,
            voluntarySwitches: after.voluntarySwitches - before.voluntarySwitches,
            involuntarySwitches: after.involuntarySwitches - before.involuntarySwitches
        )
    }
}

/// Heap allocations counted over some work (Linux with glibc; zero elsewhere).
public struct Allocations: Sendable {
    public var count: Int
    public var bytes: Int

    /// Counts every allocation the process makes, on any thread, while `work` runs. Counting costs
    /// an atomic add per allocation, so a benchmark counts in a pass of its own, not in the rounds
    /// it times.
    public static func counting(_ work: () async throws -> Void) async rethrows -> Allocations {
        allocation_counter_set_enabled(true)
        defer { allocation_counter_set_enabled(false) }
        try await work()
        let counted = Allocations(count: Int(allocation_counter_allocations()), bytes: Int(allocation_counter_bytes()))
        #if os(Linux)
        // Any call allocates: none counted means the libraries do not call this program's malloc.
        precondition(counted.count > 0, "no allocation counted: malloc is not the benchmark's own (AllocationCounter)")
        #endif
        return counted
    }
}

/// What one call cost on average, from a run of many.
public struct CostPerCall: Sendable {
    public var cpuMicroseconds: Double
    public var voluntarySwitches: Double
    public var involuntarySwitches: Double
    public var allocations: Double
    public var allocatedBytes: Double

    /// CPU and context switches a call; allocations are counted in a pass of their own (`adding`).
    public init(use: ResourceUse, calls: Int) {
        let calls = Double(calls)
        cpuMicroseconds = use.cpuSeconds / calls * 1e6
        voluntarySwitches = Double(use.voluntarySwitches) / calls
        involuntarySwitches = Double(use.involuntarySwitches) / calls
        allocations = 0
        allocatedBytes = 0
    }

    /// This cost with the allocations `counted` over `calls` calls.
    public func adding(_ counted: Allocations, calls: Int) -> CostPerCall {
        var cost = self
        cost.allocations = Double(counted.count) / Double(calls)
        cost.allocatedBytes = Double(counted.bytes) / Double(calls)
        return cost
    }

    public init(cpuMicroseconds: Double, voluntarySwitches: Double, involuntarySwitches: Double, allocations: Double, allocatedBytes: Double) {
        self.cpuMicroseconds = cpuMicroseconds
        self.voluntarySwitches = voluntarySwitches
        self.involuntarySwitches = involuntarySwitches
        self.allocations = allocations
        self.allocatedBytes = allocatedBytes
    }

    public static let zero = CostPerCall(cpuMicroseconds: 0, voluntarySwitches: 0, involuntarySwitches: 0, allocations: 0, allocatedBytes: 0)

    /// The median of each figure over several runs.
    public static func median(_ costs: [CostPerCall]) -> CostPerCall {
        CostPerCall(
            cpuMicroseconds: BenchSupport.median(costs.map(\.cpuMicroseconds)),
            voluntarySwitches: BenchSupport.median(costs.map(\.voluntarySwitches)),
            involuntarySwitches: BenchSupport.median(costs.map(\.involuntarySwitches)),
            allocations: BenchSupport.median(costs.map(\.allocations)),
            allocatedBytes: BenchSupport.median(costs.map(\.allocatedBytes))
        )
    }
}
