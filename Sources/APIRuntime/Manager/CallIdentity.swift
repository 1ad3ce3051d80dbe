import Foundation

/// What makes two calls "the same call" for the frequency policy: the API and its kind, the HTTP
/// method, the URL with its query items in a canonical order, the RPC method, the parameters
/// (JSON bodies are encoded with sorted keys, so key order never matters), and the headers the
/// API marks as significant.
///
/// The identity is the full canonical text, each part length-prefixed, never a hash of it: two
/// different calls cannot share an identity (DRDNetworking's hash of long strings could).
enum CallIdentity {
    static func key(for request: APIRequest, definition: APIDefinition, kind: String) -> String {
        // Written into one string, not an array of interpolated parts joined after (BENCHMARKS.md
        // §4, session 12).
        var key = KeyText()
        key.append(kind)
        key.append(request.api)
        key.append(request.method.rawValue)
        key.append(canonicalURL(request.url.absoluteString))
        key.append(definition.rpc?.name ?? "")
        // Text bodies as they are, binary ones (protobuf) in base64: decoding bytes that are not
        // UTF-8 as text would map different bodies to the same replacement characters.
        if let body = request.body {
            key.append(String(validating: body, as: UTF8.self).map { "t" + $0 } ?? "b" + body.base64EncodedString())
        } else {
            key.append("")
        }
        for name in definition.significantHeaders.map({ $0.lowercased() }).sorted() {
            let value = request.headerFields.first { $0.name.canonicalName == name }?.value ?? ""
            key.append(name + ":" + value)
        }
        return key.text
    }

    /// The URL with its query items sorted by name, then value, each kept as it was encoded.
    /// (Splitting the text: re-parsing it with `URLComponents` was 6 % of a call's time. Every
    /// search is over UTF-8 bytes: by `Character` it was 8 % of a call's time in the manager.)
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

    /// Parts written one after another, each as its UTF-8 length, `:` and the part.
    private struct KeyText {
        var text = ""

        init() {
            text.reserveCapacity(128)
        }

        mutating func append(_ part: String) {
            text += String(part.utf8.count)
            text += ":"
            text += part
        }
    }
}
