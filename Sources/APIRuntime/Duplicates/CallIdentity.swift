import Foundation

/// What makes two calls "the same call" for the frequency policy: the API and its kind, the HTTP
/// method, the URL with its query items in a canonical order, the RPC method, the parameters
/// (JSON bodies are encoded with sorted keys, so key order never matters), and the headers the
/// API marks as significant.
///
/// The identity is the full canonical text, each part length-prefixed, never a hash of it, so
/// two different calls cannot share an identity.
enum CallIdentity {
    static func key(for request: APIRequest, definition: APIDefinition, kind: String) -> String {
        // Text bodies as they are, binary ones (protobuf) in base64: decoding bytes that are not
        // UTF-8 as text would map different bodies to the same replacement characters.
        let body = request.body.map { body in
            String(validating: body, as: UTF8.self).map { "t" + $0 } ?? "b" + body.base64EncodedString()
        }
        var parts = [kind, request.api, request.method.rawValue, canonicalURL((request.head.scheme ?? "") + "://" + (request.head.authority ?? "") + (request.head.path ?? "")), definition.rpc?.name ?? "", body ?? ""]
        for name in definition.significantHeaders.map({ $0.lowercased() }).sorted() {
            let value = request.headerFields.first { $0.name.canonicalName == name }?.value ?? ""
            parts.append(name + ":" + value)
        }
        return lengthPrefixed(parts)
    }

    /// The URL with its query items sorted by name, then value, each kept as it was encoded.
    /// It splits the text rather than parse it again with `URLComponents`, and searches its UTF-8
    /// bytes rather than its `Character`s: this runs on every call.
    static func canonicalURL(_ url: String) -> String {
        let bytes = url.utf8
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return url }
        let start = bytes.index(after: mark)
        // A single item is in order already.
        if start < bytes.endIndex, bytes[start] != UInt8(ascii: "#"), !bytes[start...].contains(UInt8(ascii: "&")) {
            return url
        }
        var query = url[start...]
        var fragment: Substring = ""
        if let hash = query.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = query[hash...]
            query = query[..<hash]
        }
        // Each item split into name and value once, not at every comparison of the sort.
        let sorted = query.utf8.split(separator: UInt8(ascii: "&"))
            .map { bytes in
                let item = Substring(bytes)
                return (item: item, order: nameAndValue(item))
            }
            .sorted { $0.order < $1.order }
            .map(\.item)
            .joined(separator: "&")
        return String(url[..<mark]) + (sorted.isEmpty ? "" : "?" + sorted) + fragment
    }

    private static func nameAndValue(_ item: Substring) -> (Substring, Substring) {
        guard let equals = item.utf8.firstIndex(of: UInt8(ascii: "=")) else { return (item, "") }
        return (item[..<equals], item[item.index(after: equals)...])
    }

    /// The parts one after another, each as its UTF-8 length, `:` and the part, written into a
    /// string allocated once at its full size, rather than appended piece by piece: every append
    /// checks the string's capacity and uniqueness and recomputes its flags.
    static func lengthPrefixed(_ parts: [String]) -> String {
        // 20 digits hold any length, and 1 byte the colon.
        let capacity = parts.reduce(0) { $0 + $1.utf8.count + 21 }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var end = 0
            for var part in parts {
                part.withUTF8 { bytes in
                    var digits = bytes.count
                    let start = end
                    repeat {
                        buffer[end] = UInt8(ascii: "0") + UInt8(digits % 10)
                        end += 1
                        digits /= 10
                    } while digits > 0
                    buffer[start..<end].reverse()
                    buffer[end] = UInt8(ascii: ":")
                    end += 1
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[end..<(end + bytes.count)]).initialize(fromContentsOf: bytes)
                    end += bytes.count
                }
            }
            return end
        }
    }
}
