import Foundation

/// Host names as the manager compares them, wherever an app names a host: TLS settings
/// (`Configuration.tls`), connection caps (`maxConnectionsByHost`), and the hosts of base URLs and
/// redirects.
package enum HostName {
    /// `host` lowercased, without a final dot, an IPv6 address without its brackets
    /// (`API.Example.com.` → `api.example.com`), an internationalized name as DNS carries it
    /// (`Bücher.example` → `xn--bcher-kva.example`, Foundation's IDNA mapping, as URLs make it).
    package static func key(_ host: String) -> String {
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

    /// Whether `host` is this machine: `localhost`, an address of 127.0.0.0/8, or `::1`. A name
    /// under `localhost` is not: a resolver may send it elsewhere.
    package static func isLoopback(_ host: String) -> Bool {
        let key = key(host)
        if key == "localhost" || key == "::1" { return true }
        let octets = key.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether a request to `scheme`://`host` travels where others can read it: plain HTTP or
    /// plaintext gRPC to anything but this machine.
    package static func isCleartext(scheme: String?, host: String?) -> Bool {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "grpc" else { return false }
        return !(host.map(isLoopback) ?? false)
    }
}
