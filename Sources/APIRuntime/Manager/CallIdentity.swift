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
        var parts: [String] = [kind, request.api, request.method.rawValue, canonicalURL(request.url.absoluteString)]
        parts.append(definition.rpc?.name ?? "")
        // Text bodies as they are, binary ones (protobuf) in base64: decoding bytes that are not
        // UTF-8 as text would map different bodies to the same replacement characters.
        parts.append(request.body.map { body in String(validating: body, as: UTF8.self).map { "t" + $0 } ?? "b" + body.base64EncodedString() } ?? "")
        for name in definition.significantHeaders.map({ $0.lowercased() }).sorted() {
            let value = request.headerFields.first { $0.name.canonicalName == name }?.value ?? ""
            parts.append(name + ":" + value)
        }
        return parts.map { "\($0.utf8.count):\($0)" }.joined()
    }

    /// The URL with its query items sorted by name, then value, each kept as it was encoded.
    /// (Splitting the text: re-parsing it with `URLComponents` was 6 % of a call's time.)
    static func canonicalURL(_ url: String) -> String {
        guard let mark = url.firstIndex(of: "?") else { return url }
        var query = url[url.index(after: mark)...]
        var fragment: Substring = ""
        if let hash = query.firstIndex(of: "#") {
            fragment = query[hash...]
            query = query[..<hash]
        }
        let items = query.split(separator: "&").sorted { first, second in
            let (firstName, firstValue) = nameAndValue(first)
            let (secondName, secondValue) = nameAndValue(second)
            return (firstName, firstValue) < (secondName, secondValue)
        }
        let sorted = items.joined(separator: "&")
        return String(url[..<mark]) + (sorted.isEmpty ? "" : "?" + sorted) + fragment
    }

    private static func nameAndValue(_ item: Substring) -> (Substring, Substring) {
        guard let equals = item.firstIndex(of: "=") else { return (item, "") }
        return (item[..<equals], item[item.index(after: equals)...])
    }
}
