import Foundation

/// The JSON conventions every generated API shares: ISO 8601 dates, base64 data, sorted keys.
///
/// Sorted keys make a request body depend only on its values, never on dictionary order, so two
/// identical calls produce identical bytes (the frequency policy relies on that).
public enum JSONCoding {
    /// One of each, shared by every call: making a coder is costly next to a call.
    /// Both are safe to use from many threads at once (their settings are never changed).
    static let encoder = makeEncoder()
    package static let decoder = makeDecoder()

    /// A new encoder with these conventions: sorted keys, unescaped slashes, ISO 8601 dates.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(dateText(date))
        }
        return encoder
    }

    /// A new decoder with these conventions: ISO 8601 dates, with or without fractional seconds.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an ISO 8601 date")
            }
            return date
        }
        return decoder
    }

    /// `2024-05-01T12:30:00Z`: ISO 8601, UTC, whole seconds.
    public static func dateText(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Accepts ISO 8601 with or without fractional seconds, as servers send both.
    public static func date(from text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
