import Foundation
import OpenAPIKit

/// A server's URL with its variables set to their defaults: an absolute `http(s)` URL becomes a
/// base URL; a relative one (`/api/v3`) is a path put before every API's path.
struct ServerURL {
    let text: String

    init(_ server: OpenAPIKit.OpenAPI.Server) {
        var text = server.urlTemplate.rawValue
        for (name, variable) in server.variables {
            text = text.replacingOccurrences(of: "{\(name)}", with: variable.default)
        }
        while text.hasSuffix("/") { text.removeLast() }
        self.text = text
    }

    var absolute: String? {
        let lowered = text.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? text : nil
    }

    /// The path of a relative URL, without a trailing slash (`""` for `/`).
    var relativePath: String? {
        absolute == nil && (text.isEmpty || text.hasPrefix("/")) ? text : nil
    }
}
