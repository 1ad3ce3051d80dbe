import Foundation
import NIOCore

/// A session's host when it is written as an IP address (`127.0.0.1`, `[::1]`) rather than a
/// name: TLS treats the two apart (a name goes in SNI and matches DNS names, an address matches
/// the certificate's IP addresses), so the transports ask which it is in one place.
package struct HostAddress {
    /// The address without brackets.
    package let text: String
    package let isIPv6: Bool

    /// Nil when `host` is a name.
    package init?(_ host: String) {
        let text = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard let address = try? SocketAddress(ipAddress: text, port: 0) else { return nil }
        self.text = text
        if case .v6 = address { self.isIPv6 = true } else { self.isIPv6 = false }
    }
}
