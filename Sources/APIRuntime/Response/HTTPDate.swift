import Foundation

/// HTTP's date formats (RFC 9110, section 5.6.7): IMF-fixdate, which servers send, and the two
/// obsolete ones recipients must still read.
enum HTTPDate {
    static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",  // Sun, 06 Nov 1994 08:49:37 GMT
        "EEEE, dd-MMM-yy HH:mm:ss zzz",   // Sunday, 06-Nov-94 08:49:37 GMT
        "EEE MMM d HH:mm:ss yyyy",        // Sun Nov  6 08:49:37 1994
    ]

    static func parse(_ text: String) -> Date? {
        // asctime pads a one-digit day with a space; the formatter reads it with one.
        let text = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
