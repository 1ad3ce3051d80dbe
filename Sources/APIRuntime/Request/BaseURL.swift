import Foundation

/// A base URL, parsed once, when the definition or the override that names it is made: where a
/// request goes (scheme and authority), the path every API path follows, and the origin its
/// session is keyed by. A call only appends its path and query to it.
struct BaseURL: Sendable, Hashable {
    /// `https`, `grpcs`…, lowercased.
    let scheme: String
    /// The host and port as a request names them (`api.example.com`, `[::1]:8080`); user info is
    /// never part of it.
    let authority: String
    /// The host, lowercased, without a final dot, an IPv6 address without its brackets.
    let host: String
    /// The port, the scheme's default filled in.
    let port: Int
    /// The path, percent-encoded, without a trailing `/` (empty for none).
    let path: String

    /// nil when `text` has no scheme or host, has a query or fragment, or names a port past 65535.
    init?(_ text: String) {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(),
              let encodedHost = components.encodedHost, !encodedHost.isEmpty,
              components.percentEncodedQuery == nil, components.percentEncodedFragment == nil
        else { return nil }
        let defaultPort = scheme == "https" || scheme == "grpcs" ? 443 : 80
        let port = components.port ?? defaultPort
        guard (1...65535).contains(port) else { return nil }
        self.scheme = scheme
        self.authority = components.port.map { "\(encodedHost):\($0)" } ?? encodedHost
        self.host = HostName.key(encodedHost)
        self.port = port
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }

    /// The origin calls to this base URL reach.
    var origin: Origin { Origin(scheme: scheme, host: host, port: port) }
}
