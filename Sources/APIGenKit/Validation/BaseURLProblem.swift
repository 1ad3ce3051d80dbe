import Foundation

/// What makes an absolute http or https URL unfit to be a base URL: everything after it is sent
/// to every call of an API, so a flaw here is a flaw in each request. Shared by the validator (an
/// error at `baseURL:`) and the OpenAPI importer (a warning, and the server URL left out).
package struct BaseURLProblem: CustomStringConvertible, Sendable {
    package let description: String

    /// nil when `text` has none of the flaws; it is not checked for being an http URL.
    package init?(_ text: String) {
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            description = "contains a control character (a line break, a tab): it would split or corrupt the request line"
            return
        }
        let authority = Self.authority(of: text)
        if authority.contains("@") {
            description = "carries a user name or password ('user:password@'): credentials in a URL end up in logs; send them with an authentication interceptor or a header"
            return
        }
        if text.contains("#") {
            description = "has a '#fragment', which never reaches the server: every call would go to the base path"
            return
        }
        if let port = Self.port(of: authority), !port.isEmpty, !(port.allSatisfy(\.isASCIIDigit) && (Int(port).map { (1...65535).contains($0) } ?? false)) {
            description = "has the port '\(port)'; a port is a number from 1 to 65535"
            return
        }
        return nil
    }

    /// `user@host:port` of `scheme://user@host:port/path`.
    private static func authority(of text: String) -> Substring {
        guard let start = text.range(of: "://")?.upperBound else { return "" }
        let rest = text[start...]
        return rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
    }

    /// The text after the host's colon, or nil without one (an IPv6 host's colons are its own).
    private static func port(of authority: Substring) -> Substring? {
        let host = authority[(authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex)...]
        let afterHost = host.hasPrefix("[") ? host[(host.firstIndex(of: "]") ?? host.startIndex)...] : host
        return afterHost.lastIndex(of: ":").map { afterHost[afterHost.index(after: $0)...] }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
