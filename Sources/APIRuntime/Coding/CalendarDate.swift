import Foundation

/// A day on the calendar, with no time of day and no time zone: a birthday, a due date. On the
/// wire it is ISO 8601's full date, `2024-05-01` (`CalendarDate` in a manifest, OpenAPI's
/// `format: date`).
///
/// ```swift
/// let due = CalendarDate(year: 2024, month: 5, day: 1)!
/// due.description                 // "2024-05-01"
/// due.date(in: .current)          // the start of that day where the user is
/// ```
public struct CalendarDate: Hashable, Comparable, Sendable, Codable, LosslessStringConvertible, ParameterValue {
    /// 1 to 9999.
    public let year: Int
    /// 1 to 12.
    public let month: Int
    /// 1 to the number of days in the month.
    public let day: Int

    /// nil when the three do not name a day of the Gregorian calendar between the years 1 and
    /// 9999 (February 30th, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.days(inMonth: month, of: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.year = parts.year ?? 1
        self.month = parts.month ?? 1
        self.day = parts.day ?? 1
    }

    /// `2024-05-01`: four digits, two, two; nil for any other text.
    public init?(_ description: String) {
        let bytes = Array(description.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `2024-05-01`.
    public var description: String {
        func padded(_ value: Int, to width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, to: 4))-\(padded(month, to: 2))-\(padded(day, to: 2))"
    }

    /// The first instant of the day in `timeZone`.
    public func date(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        // Every value this type holds is a day of the Gregorian calendar.
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// Whether `lhs` is an earlier day than `rhs`.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Reads `YYYY-MM-DD`; any other text, or a day that does not exist, fails to decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = CalendarDate(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a calendar date (YYYY-MM-DD)")
        }
        self = value
    }

    /// Writes `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `YYYY-MM-DD`, as a path or query parameter.
    public var parameterText: String { description }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
