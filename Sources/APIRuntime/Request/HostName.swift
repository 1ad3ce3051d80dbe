import Foundation

/// Host names as the manager compares them, wherever an app names a host: TLS settings
/// (`Configuration.tls`), connection caps (`maxConnectionsByHost`), and the hosts of base URLs and
/// redirects.
enum HostName {
    /// `host` lowercased, without a final dot, an IPv6 address without its brackets
    /// (`API.Example.com.` → `api.example.com`), an internationalized name as DNS carries it
    /// (`Bücher.example` → `xn--bcher-kva.example`, Foundation's IDNA mapping, as URLs make it).
    static func key(_ host: String) -> String {
        var key = host
        if key.hasPrefix("["), key.hasSuffix("]") { key = String(key.dropFirst().dropLast()) }
        if !key.allSatisfy(\.isASCII) {
            var components = URLComponents()
            components.host = key
            key = components.encodedHost ?? key
        }
        key = key.lowercased()
        while key.hasSuffix(".") { key.removeLast() }
        return key
    }
}
