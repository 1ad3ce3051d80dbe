import Foundation

/// A 128-bit FNV-1a hash of what a file is made from, for the render and proto caches. 128 bits make an
/// accidental match between two different inputs practically impossible; it is not meant to
/// resist someone crafting one.
struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    private(set) var high: UInt64 = 0x6C62_272E_07BB_0142
    private(set) var low: UInt64 = 0x62B8_2175_6295_C58D

    init() {}

    /// Parses the form `description` prints.
    init?(_ text: Substring) {
        guard text.utf8.count == 32, let high = UInt64(text.prefix(16), radix: 16), let low = UInt64(text.suffix(16), radix: 16) else { return nil }
        self.high = high
        self.low = low
    }

    var description: String {
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }

    mutating func add(_ byte: UInt8) {
        low ^= UInt64(byte)
        // × the FNV-128 prime, 2^88 + 0x13B, modulo 2^128.
        let (carry, product) = low.multipliedFullWidth(by: 0x13B)
        high = high &* 0x13B &+ carry &+ (low << 24)
        low = product
    }

    /// Any bytes, led by their count (0xFF cannot end them as it ends text).
    mutating func add(_ data: Data) {
        add(String(data.count))
        for byte in data { add(byte) }
    }

    mutating func add(_ text: String) {
        for byte in text.utf8 { add(byte) }
        add(0xFF)  // Not a UTF-8 byte: ends the string, so "ab" + "c" and "a" + "bc" differ.
    }

    /// A template context: dictionaries with their keys sorted, arrays in order, scalars as text,
    /// each tagged with its kind so that no two different contexts read the same.
    mutating func add(context value: TemplateValue) {
        switch value {
        case .object(let fields):
            add(UInt8(ascii: "{"))
            for key in fields.keys.sorted() {
                add(key)
                add(context: fields[key]!)
            }
            add(UInt8(ascii: "}"))
        case .list(let items):
            add(UInt8(ascii: "["))
            for item in items { add(context: item) }
            add(UInt8(ascii: "]"))
        case .string(let text):
            add(UInt8(ascii: "s"))
            add(text)
        case .bool(let flag):
            add(UInt8(ascii: flag ? "t" : "f"))
        case .int(let number):
            add(UInt8(ascii: "i"))
            add(String(number))
        }
    }
}
