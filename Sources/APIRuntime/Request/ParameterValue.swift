import Foundation

/// A value that can travel as text: in a path segment, a query item, a header or a form field.
public protocol ParameterValue: Sendable {
    /// The text sent on the wire, before any percent-encoding.
    var parameterText: String { get }
}

extension String: ParameterValue { public var parameterText: String { self } }
extension Int: ParameterValue { public var parameterText: String { String(self) } }
extension Int32: ParameterValue { public var parameterText: String { String(self) } }
extension Int64: ParameterValue { public var parameterText: String { String(self) } }
extension Double: ParameterValue { public var parameterText: String { String(self) } }
extension Float: ParameterValue { public var parameterText: String { String(self) } }
extension Decimal: ParameterValue { public var parameterText: String { description } }
extension Bool: ParameterValue { public var parameterText: String { self ? "true" : "false" } }
extension UUID: ParameterValue { public var parameterText: String { uuidString } }
extension URL: ParameterValue { public var parameterText: String { absoluteString } }
extension Data: ParameterValue { public var parameterText: String { base64EncodedString() } }

extension Date: ParameterValue {
    /// ISO 8601 in UTC, the same text the JSON coders use.
    public var parameterText: String { JSONCoding.dateText(self) }
}

/// Generated enums travel as their raw values.
extension ParameterValue where Self: RawRepresentable, RawValue == String {
    /// The raw value.
    public var parameterText: String { rawValue }
}

extension ParameterValue where Self: RawRepresentable, RawValue: BinaryInteger {
    /// The raw value, in decimal.
    public var parameterText: String { String(rawValue) }
}
