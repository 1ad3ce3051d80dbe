import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's memory, as the soak reports it.
struct MemoryReading {
    /// Resident memory as the kernel counts it (`VmRSS`), read straight away.
    var resident: Int
    /// Resident memory after glibc has handed its free pages back (`malloc_trim`): what is in
    /// use, without the freed memory glibc's per-thread arenas keep for reuse.
    var residentAfterTrim: Int

    /// Nil where there is no /proc or glibc, as on Apple platforms.
    static func now() -> MemoryReading? {
        #if canImport(Glibc)
        guard let resident = residentBytes() else { return nil }
        // malloc.h is not in Swift's Glibc module; glibc exports the function all the same.
        typealias Trim = @convention(c) (Int) -> Int32
        guard let trim = dlsym(nil, "malloc_trim") else { return nil }
        _ = unsafeBitCast(trim, to: Trim.self)(0)
        guard let trimmed = residentBytes() else { return nil }
        return MemoryReading(resident: resident, residentAfterTrim: trimmed)
        #else
        return nil
        #endif
    }

    /// Resident memory now, without trimming first: cheap enough to sample often.
    static var resident: Int? { residentBytes() }

    /// `VmRSS` in /proc/self/status, in bytes.
    private static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }
}

func mebibytes(_ bytes: Int) -> String {
    String(format: "%.1f MiB", Double(bytes) / 1_048_576)
}
