import Foundation

/// Dates written as Unix time: the seconds or milliseconds since 1970-01-01T00:00:00Z, a JSON
/// number (`format: unixSeconds` or `unixMilliseconds` in a manifest). Any number is read;
/// whole seconds or milliseconds are written.
public enum UnixTime {
    /// The date `seconds` after 1970-01-01T00:00:00Z.
    public static func date(seconds: Double) -> Date {
        Date(timeIntervalSince1970: seconds)
    }

    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    public static func date(milliseconds: Double) -> Date {
        Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// Whole seconds, rounded down; a date beyond what 64 bits count is clamped to their range.
    public static func seconds(_ date: Date) -> Int64 {
        whole(date.timeIntervalSince1970)
    }

    /// Whole milliseconds, rounded down; a date beyond what 64 bits count is clamped to their range.
    public static func milliseconds(_ date: Date) -> Int64 {
        whole(date.timeIntervalSince1970 * 1000)
    }

    private static func whole(_ value: Double) -> Int64 {
        let floor = value.rounded(.down)
        if floor >= 0x1p63 { return .max }
        if floor < -0x1p63 || floor.isNaN { return .min }
        return Int64(floor)
    }
}
