/// Percent-encoding for the parts of a request, byte by byte over UTF-8.
///
/// Only RFC 3986's unreserved characters stay as they are, so a value can never change the
/// structure of the URL it is put in: a `/` in a path parameter stays inside its segment and a
/// `&` in a query value does not start a new item.
///
/// Text that needs no escape (an id, a number, most names) is returned as it is, without a copy:
/// every call's path and query go through here.
public enum PercentEncoding {
    /// For a path segment or a query name or value: everything but `A-Z a-z 0-9 - . _ ~` is escaped.
    public static func component(_ text: String) -> String {
        encode(text, spaceAsPlus: false)
    }

    /// For a path parameter's value: as `component`, and a value of `.` or `..` is escaped too
    /// (`%2E`, `%2E%2E`), since a server or proxy that normalises paths would otherwise take it as
    /// the current or parent folder, and `/users/{id}` with `..` would reach `/`.
    public static func pathSegment(_ text: String) -> String {
        switch text {
        case ".": "%2E"
        case "..": "%2E%2E"
        default: component(text)
        }
    }

    /// For the fixed text of a path template: what RFC 3986 allows in a path stays (`/`, `:`,
    /// `@`, sub-delimiters, and `%XX` escapes already written), anything else is escaped.
    public static func pathText(_ text: String) -> String {
        if text.utf8.allSatisfy(isAllowedInPath) { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                result.append(contentsOf: bytes[index...(index + 2)])
                index += 3
                continue
            }
            if isAllowedInPath(byte) {
                result.append(byte)
            } else {
                appendEscape(of: byte, to: &result)
            }
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// For `application/x-www-form-urlencoded` bodies, where a space is `+`.
    public static func form(_ text: String) -> String {
        encode(text, spaceAsPlus: true)
    }

    private static func encode(_ text: String, spaceAsPlus: Bool) -> String {
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                appendEscape(of: byte, to: &bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0x0F)])
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

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

    /// Unreserved characters, `/ : @` and the sub-delimiters `! $ & ' ( ) * + , ; =`.
    private static func isAllowedInPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
             UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return isUnreserved(byte)
        }
    }
}
