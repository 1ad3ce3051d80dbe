import APIWireFormat
import HTTPTypes

/// The credentials a request carries as sent: the values of its credential headers
/// (`Authorization`, `Proxy-Authorization`, `Cookie`, and every header whose name the standard
/// secret names mark, such as `X-API-Key` or `X-Auth-Token`), and of its secret-named query items
/// (`?api_key=…`, `?access_token=…`). Requests with other credentials are other callers: the
/// duplicate gate never merges them, and the response cache keeps their replies apart, under the
/// account these credentials belong to.
struct Credentials: Sendable, Equatable {
    /// One `name:value` line for each credential field, sorted by name (a name's values keep
    /// their order; a `Cookie` field's cookies in order of name): what the duplicate gate
    /// compares, and the cache's account is first made from.
    let text: String
    /// The lowercased names of the credential fields, in order.
    let fieldNames: [String]
    /// What a log-out may name these credentials by (`ResponseCache.removeAll(credential:)`):
    /// each whole value, the token after an authorization scheme (`t` of `Bearer t`), each
    /// cookie whose name is a secret (`sid=…` of a `Cookie` line), and each secret query item's
    /// value, decoded.
    let names: [String]

    /// The credentials `head` carries, in its fields and its query; nil when there are none.
    init?(_ head: HTTPRequest) {
        self.init(head.headerFields, query: Self.secretQueryItems(in: head.path ?? ""))
    }

    /// The credentials among `fields`, and among the secret query items `query` (name and value
    /// as encoded); nil when there are none.
    init?(_ fields: HTTPFields, query: [(name: Substring, value: Substring)] = []) {
        // A server may send one cookie before another or after it: the same cookies are the same.
        let credentials = fields
            .filter { Self.isCredential($0.name.canonicalName) }
            .map { field in HTTPField(name: field.name, value: field.name == .cookie ? Self.cookiesInOrder(field.value) : field.value) }
            .filter { $0.name != .cookie || !$0.value.isEmpty }
        guard !credentials.isEmpty || !query.isEmpty else { return nil }
        let sorted = credentials.sorted { $0.name.canonicalName < $1.name.canonicalName }
        // A query item's line starts with `?`, which no field name does.
        let lines = sorted.map { $0.name.canonicalName + ":" + $0.value } + query.map { "?" + $0.name + ":" + $0.value }
        text = lines.joined(separator: "\n")
        fieldNames = sorted.map(\.name.canonicalName) + query.map { "?" + $0.name }
        var names: [String] = query.flatMap { item in
            let value = String(item.value)
            let decoded = value.removingPercentEncoding ?? value
            return decoded == value ? [value] : [value, decoded]
        }
        for field in sorted {
            names.append(field.value)
            switch field.name {
            case .authorization, .proxyAuthorization:
                // RFC 9110, section 11.4: an auth-scheme, a space, and the token.
                if let space = field.value.firstIndex(of: " ") {
                    let token = field.value[field.value.index(after: space)...].drop { $0 == " " }
                    if !token.isEmpty { names.append(String(token)) }
                }
            case .cookie:
                for pair in field.value.split(separator: ";") {
                    let pair = pair.drop { $0 == " " }
                    let name = pair.prefix { $0 != "=" }
                    if SecretNames.standard.contains(String(name)) { names.append(String(pair)) }
                }
            default:
                break
            }
        }
        self.names = names
    }

    /// Whether these credentials replace `earlier` as a refreshed token does: other values in the
    /// same fields. Credentials added to or taken from a request (a token sent only after a
    /// challenge) are not a replacement.
    func replace(_ earlier: Credentials) -> Bool {
        fieldNames == earlier.fieldNames && text != earlier.text
    }

    /// A `Cookie` field's cookies in order of name (a name's cookies in theirs), without those a
    /// load balancer or a bot filter sets (`VolatileFields.cookies`), which say nothing of who calls and
    /// which some renew on every reply.
    private static func cookiesInOrder(_ value: String) -> String {
        let pairs = value.split(separator: ";").map { $0.drop { $0 == " " } }.filter { pair in
            let name = pair.prefix { $0 != "=" }.lowercased()
            return !VolatileFields.isVolatileCookie(name)
        }
        let sorted = pairs.enumerated().sorted { a, b in
            let nameA = a.element.prefix { $0 != "=" }, nameB = b.element.prefix { $0 != "=" }
            return nameA != nameB ? nameA < nameB : a.offset < b.offset
        }
        return sorted.map { String($0.element) }.joined(separator: "; ")
    }

    /// Whether a header of this name (lowercased) carries a credential.
    static func isCredential(_ name: String) -> Bool {
        SecretNames.standard.containsHeader(name)
    }

    /// The items of `path`'s query whose names are secret (`api_key`, `access_token`), as
    /// encoded, in the order they came; not a page's cursor (`pageToken`, `next_token`), which
    /// says where a list goes on, not who reads it.
    static func secretQueryItems(in path: String) -> [(name: Substring, value: Substring)] {
        // Read as bytes: the marks are ASCII, and the items keep the bytes they were sent with.
        let bytes = path.utf8
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return [] }
        let query = bytes[bytes.index(after: mark)...].prefix { $0 != UInt8(ascii: "#") }
        return query.split(separator: UInt8(ascii: "&")).compactMap { item in
            guard let equals = item.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let name = Substring(item[..<equals])
            let decoded = item[..<equals].contains(UInt8(ascii: "%")) ? name.removingPercentEncoding ?? String(name) : String(name)
            guard isCredentialQueryItem(decoded) else { return nil }
            return (name, Substring(item[item.index(after: equals)...]))
        }
    }

    /// Whether a query item of this name carries a credential: a secret name, no word of which
    /// names a place in a list (`page`, `next`, `cursor`, `continuation`, `sync`, `resume`).
    static func isCredentialQueryItem(_ name: String) -> Bool {
        SecretNames.standard.contains(name) && !SecretNames.words(of: name).contains(where: cursorWords.contains)
    }

    private static let cursorWords: Set<String> = ["page", "next", "prev", "previous", "cursor", "continuation", "sync", "resume", "pagination"]
}
