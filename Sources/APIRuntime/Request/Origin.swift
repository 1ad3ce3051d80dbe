import APIWireFormat
import Foundation

/// A URL's origin (RFC 6454): its scheme and host, lowercased, and its port, the scheme's
/// default filled in. Two URLs of one origin reach the same server.
struct Origin: Hashable, Sendable {
    var scheme: String
    var host: String
    var port: Int

    init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        self.init(scheme: scheme, host: host, port: url.port ?? BaseURL.defaultPort(of: scheme))
    }

    /// The origin of the URL `text` names; nil for none, or text that is no URL with a host.
    init?(_ text: String?) {
        guard let url = text.flatMap(URL.init(string:)) else { return nil }
        self.init(url)
    }
}

extension BaseURL {
    /// The origin calls to this base URL reach.
    var origin: Origin { Origin(scheme: scheme, host: host, port: port) }
}
