import Foundation
import HTTPTypes

/// A type a reply's header can be read as (`responseHeaders:` in a manifest): text, numbers,
/// booleans, URLs, UUIDs, dates and enums.
public protocol HeaderValue: Sendable {
    /// The value a header's text spells; nil when it spells none.
    init?(headerText: String)
}

extension String: HeaderValue {
    public init?(headerText: String) { self = headerText }
}

extension Int: HeaderValue {
    public init?(headerText: String) { self.init(headerText.trimmingCharacters(in: .whitespaces)) }
}

extension Int32: HeaderValue {
    public init?(headerText: String) { self.init(headerText.trimmingCharacters(in: .whitespaces)) }
}

extension Int64: HeaderValue {
    public init?(headerText: String) { self.init(headerText.trimmingCharacters(in: .whitespaces)) }
}

extension Double: HeaderValue {
    public init?(headerText: String) { self.init(headerText.trimmingCharacters(in: .whitespaces)) }
}

extension Float: HeaderValue {
    public init?(headerText: String) { self.init(headerText.trimmingCharacters(in: .whitespaces)) }
}

extension Decimal: HeaderValue {
    public init?(headerText: String) {
        let text = headerText.trimmingCharacters(in: .whitespaces)
        // `Decimal(string:)` reads a number's leading digits and ignores the rest.
        guard text.wholeMatch(of: /[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/) != nil else { return nil }
        self.init(string: text)
    }
}

extension CalendarDate: HeaderValue {
    public init?(headerText: String) { self.init(headerText.trimmingCharacters(in: .whitespaces)) }
}

extension Bool: HeaderValue {
    public init?(headerText: String) {
        switch headerText.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "1": self = true
        case "false", "0": self = false
        default: return nil
        }
    }
}

extension URL: HeaderValue {
    public init?(headerText: String) { self.init(string: headerText.trimmingCharacters(in: .whitespaces)) }
}

extension UUID: HeaderValue {
    public init?(headerText: String) { self.init(uuidString: headerText.trimmingCharacters(in: .whitespaces)) }
}

extension Date: HeaderValue {
    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110), or ISO 8601.
    public init?(headerText: String) {
        let text = headerText.trimmingCharacters(in: .whitespaces)
        if let date = HTTPDate.parse(text) ?? JSONCoding.date(from: text) {
            self = date
        } else {
            return nil
        }
    }
}

/// Generated enums read as their raw values.
extension HeaderValue where Self: RawRepresentable, RawValue == String {
    /// The case whose raw value the header's text is, spaces around it ignored.
    public init?(headerText: String) { self.init(rawValue: headerText.trimmingCharacters(in: .whitespaces)) }
}

extension HeaderValue where Self: RawRepresentable, RawValue: FixedWidthInteger {
    /// The case whose raw value the header's number is.
    public init?(headerText: String) {
        guard let raw = RawValue(headerText.trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(rawValue: raw)
    }
}

/// A reply's header fields as generated `ResponseHeaders` read them.
public struct HeaderReader: Sendable {
    /// The reply's header fields.
    public let fields: HTTPFields

    /// A reader of `fields`.
    public init(_ fields: HTTPFields) {
        self.fields = fields
    }

    /// The header named `name` as a `Value`; nil when it is absent or does not spell one. A
    /// header sent more than once is read from its values joined with commas, as HTTP combines them.
    public func value<Value: HeaderValue>(_ name: String) -> Value? {
        guard let name = HTTPField.Name(name), let text = fields[name] else { return nil }
        return Value(headerText: text)
    }
}

extension APIReply {
    /// The reply's headers, for reading declared ones as their types.
    public var headers: HeaderReader { HeaderReader(headerFields) }
}
