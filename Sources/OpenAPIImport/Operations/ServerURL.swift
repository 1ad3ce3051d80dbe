import APIGenKit
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

    /// The server's URL, or nil with a warning at `pointer` when it could not be a base URL (a
    /// password, a fragment, a bad port, a control character): the API then goes to the
    /// workspace's base URL. The warning does not repeat the URL, which may hold a password.
    static func usable(_ server: OpenAPIKit.OpenAPI.Server, at pointer: JSONPointer, report: inout ImportDiagnostics) -> ServerURL? {
        let url = ServerURL(server)
        if url.absolute != nil, let problem = BaseURLProblem(url.text) {
            report.warning("the server URL \(problem); it is left out: set the workspace's 'defaults: baseURL:' yourself", at: pointer)
            return nil
        }
        return url
    }
}
