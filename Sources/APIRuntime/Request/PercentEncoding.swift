/// Percent-encoding for the parts of a request, byte by byte over UTF-8.
///
/// Only RFC 3986's unreserved characters stay as they are, so a value can never change the
/// structure of the URL it is put in: a `/` in a path parameter stays inside its segment and a
/// `&` in a query value does not start a new item.
public enum PercentEncoding {
    /// For a path segment or a query name or value: everything but `A-Z a-z 0-9 - . _ ~` is escaped.
    public static func component(_ text: String) -> String {
        encode(text, spaceAsPlus: false)
    }

    /// For `application/x-www-form-urlencoded` bodies, where a space is `+`.
    public static func form(_ text: String) -> String {
        encode(text, spaceAsPlus: true)
    }

    private static func encode(_ text: String, spaceAsPlus: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
