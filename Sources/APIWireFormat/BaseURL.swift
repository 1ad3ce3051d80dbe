import Foundation

/// A base URL, parsed once, when the definition or the override that names it is made: where a
/// request goes (scheme and authority), the path every API path follows, and the origin its
/// session is keyed by. A call only appends its path and query to it.
package struct BaseURL: Sendable, Hashable {
    /// `https`, `grpcs`…, lowercased.
    package let scheme: String
    /// The host and port as a request names them (`api.example.com`, `[::1]:8080`); user info is
    /// never part of it.
    package let authority: String
    /// The host, lowercased, without a final dot, an IPv6 address without its brackets.
    package let host: String
    /// The port, the scheme's default filled in.
    package let port: Int
    /// The path, percent-encoded, without a trailing `/` (empty for none).
    package let path: String

    /// nil when `text` has no scheme or host, has a query or fragment, or names a port past 65535.
    package init?(_ text: String) {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(),
              let encodedHost = components.encodedHost, !encodedHost.isEmpty,
              components.percentEncodedQuery == nil, components.percentEncodedFragment == nil
        else { return nil }
        let port = components.port ?? Self.defaultPort(of: scheme)
        guard (1...65535).contains(port) else { return nil }
        self.scheme = scheme
        self.authority = components.port.map { "\(encodedHost):\($0)" } ?? encodedHost
        self.host = HostName.key(encodedHost)
        self.port = port
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }

    /// The port a URL of `scheme` (lowercased) means when it names none: 443 for `https` and
    /// `grpcs`, 80 for the others.
    package static func defaultPort(of scheme: String) -> Int {
        scheme == "https" || scheme == "grpcs" ? 443 : 80
    }

    /// `base` and `path` with one slash between them; `base` alone for an empty path (a JSON-RPC
    /// endpoint given as an absolute URL).
    package static func joined(_ base: String, _ path: String) -> String {
        guard !path.isEmpty else { return base }
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return trimmed + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// The path of a URL (`https://api.example.com/v1` → `/v1`, and `""` without one); a path as
    /// it is.
    package static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "" }
        return String(rest[slash...].prefix { $0 != "?" })
    }
}
