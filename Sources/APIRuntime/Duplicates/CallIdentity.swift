import Foundation

/// What makes two calls "the same call" for the frequency policy and the response cache: the
/// kind and API, the HTTP method, where the request goes, its path with its query items in a
/// canonical order (items of one name keep theirs: `?sort=name&sort=age` is not
/// `?sort=age&sort=name`), the RPC method, the parameters (JSON bodies are encoded with sorted
/// keys, so key order never matters), and its headers as sent: every one the request carries (the
/// workspace's, the API's, the parameters', the call's own and those interceptors add), or only
/// those an API names in `significantHeaders`. Credential headers are not part of it: they are the
/// call's `Credentials`, which the duplicate gate compares besides the identity, and the cache keeps
/// replies apart by, whatever `significantHeaders` says. Nor are the headers that tell one
/// request from another of the same call (`VolatileFields.headers`: a trace, a request id, a date),
/// which an interceptor stamps on every request: counted, they would make every call a new one.
///
/// The identity is the full canonical text, each part length-prefixed, never a hash of it, so
/// two different calls cannot share an identity.
enum CallIdentity {
    /// The identity of `request` with `body` as its parameters (the body before an RPC envelope
    /// adds its id, which differs on every call).
    static func key(for request: APIRequest, body: Data?, definition: APIDefinition, kind: String) -> String {
        // Text bodies as they are, binary ones (protobuf) in base64: decoding bytes that are not
        // UTF-8 as text would map different bodies to the same replacement characters.
        let body = body.map { body in
            String(validating: body, as: UTF8.self).map { "t" + $0 } ?? "b" + body.base64EncodedString()
        }
        let head = request.head
        var parts = [
            kind, request.api, head.method.rawValue, head.scheme ?? "", head.authority ?? "",
            canonicalPath(head.path ?? ""), definition.wire.remoteMethod ?? "", body ?? "",
        ]
        if let significant = definition.significantHeaders {
            for name in significant.map({ $0.lowercased() }).sorted() where !Credentials.isCredential(name) {
                let values = head.headerFields.filter { $0.name.canonicalName == name }.map(\.value)
                parts.append(name + ":" + values.joined(separator: "\n"))
            }
        } else {
            // Sorted by name; a name's values keep their order.
            let fields = head.headerFields
                .filter { !VolatileFields.headers.contains($0.name.canonicalName) && !Credentials.isCredential($0.name.canonicalName) }
                .sorted { $0.name.canonicalName < $1.name.canonicalName }
            for field in fields { parts.append(field.name.canonicalName + ":" + field.value) }
        }
        return lengthPrefixed(parts)
    }

    /// The path with its query items in order of name, each kept as it was encoded; items of one
    /// name stay in the order they came, which the server may read as meaningful (a sort order).
    /// It splits the text rather than parse it again with `URLComponents`, and searches its UTF-8
    /// bytes rather than its `Character`s: this runs on every call the policy compares.
    static func canonicalPath(_ path: String) -> String {
        let bytes = path.utf8
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return path }
        let start = bytes.index(after: mark)
        // A single item is in order already.
        if start < bytes.endIndex, bytes[start] != UInt8(ascii: "#"), !bytes[start...].contains(UInt8(ascii: "&")) {
            return path
        }
        var query = path[start...]
        var fragment: Substring = ""
        if let hash = query.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = query[hash...]
            query = query[..<hash]
        }
        // Each item's name found once, not at every comparison of the (stable) sort.
        let sorted = query.utf8.split(separator: UInt8(ascii: "&"))
            .map { bytes in
                let item = Substring(bytes)
                return (item: item, name: name(of: item))
            }
            .sorted { $0.name < $1.name }
            .map(\.item)
            .joined(separator: "&")
        return String(path[..<mark]) + (sorted.isEmpty ? "" : "?" + sorted) + fragment
    }

    private static func name(of item: Substring) -> Substring {
        guard let equals = item.utf8.firstIndex(of: UInt8(ascii: "=")) else { return item }
        return item[..<equals]
    }

    /// The parts one after another, each as its UTF-8 length, `:` and the part: no part can run
    /// into the next.
    static func lengthPrefixed(_ parts: [String]) -> String {
        var text = ""
        text.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count + 8 })
        for part in parts {
            text += String(part.utf8.count)
            text += ":"
            text += part
        }
        return text
    }
}
