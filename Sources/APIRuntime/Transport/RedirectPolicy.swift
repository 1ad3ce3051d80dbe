import Foundation
import HTTPTypes

/// Which redirects a call follows, and what it keeps on the way. The manager follows redirects
/// itself, for every HTTP transport alike (they are told not to), so that credentials never
/// travel to a server the call was not meant for.
///
/// - A redirect to another origin (scheme, host or port) drops every credential header:
///   `Authorization`, `Cookie`, `Proxy-Authorization`, and every header whose name `secrets`
///   holds (`X-API-Key`, `X-Auth-Token`, …).
/// - A redirect from https to http is refused (`.invalidResponse`) unless `allowsHTTPSToHTTP`.
/// - 303, and 301 or 302 after a POST, continue with a GET without the body; 307 and 308 send
///   the same method and body again, which a body read as it streams cannot be (`.invalidRequest`).
/// - More than `maxRedirects` in one call is an error; with 0, a 3xx reply is the call's reply.
public struct RedirectPolicy: Sendable, Equatable {
    /// How many redirects one call follows; 0 makes a 3xx reply the call's reply.
    public var maxRedirects: Int
    /// Whether a redirect from https to http is followed; never by default.
    public var allowsHTTPSToHTTP: Bool
    /// The header names a redirect to another origin drops, besides the standard credentials.
    public var secrets: SecretNames

    /// Follows up to `maxRedirects` redirects, dropping credentials and the headers `secrets` names at another origin.
    public init(maxRedirects: Int = 5, allowsHTTPSToHTTP: Bool = false, secrets: SecretNames = .standard) {
        self.maxRedirects = max(0, maxRedirects)
        self.allowsHTTPSToHTTP = allowsHTTPSToHTTP
        self.secrets = secrets
    }

    /// Up to five redirects, never from https to http, credentials dropped across origins.
    public static let standard = RedirectPolicy()
    /// No redirect is followed: a 3xx reply is the call's reply.
    public static let none = RedirectPolicy(maxRedirects: 0)

    /// The request to send after `response`, or nil when it is no redirect to follow.
    func next(
        after response: HTTPResponse, to request: HTTPRequest, body: HTTPBody?, followed: Int, api: String
    ) throws(APIError) -> (request: HTTPRequest, body: HTTPBody?)? {
        guard maxRedirects > 0, [301, 302, 303, 307, 308].contains(response.status.code),
              let location = response.headerFields[.location], let current = request.url
        else { return nil }
        guard followed < maxRedirects else {
            throw APIError(api: api, reason: .invalidResponse(message: "more than \(maxRedirects) redirects"))
        }
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else {
            throw APIError(api: api, reason: .invalidResponse(message: "a redirect to '\(location)', which is not an http or https URL"))
        }
        if current.scheme?.lowercased() == "https", scheme == "http", !allowsHTTPSToHTTP {
            throw APIError(api: api, reason: .invalidResponse(message: "a redirect from https to http (\(target.absoluteString)) is refused"))
        }

        var next = request
        next.url = target
        var nextBody = body
        let becomesGet = response.status.code == 303 && request.method != .head
            || [301, 302].contains(response.status.code) && request.method == .post
        if becomesGet {
            next.method = .get
            nextBody = nil
            next.headerFields[.contentType] = nil
            next.headerFields[.contentLength] = nil
        } else if let body, body.iterationBehavior == .single {
            throw APIError(api: api, reason: .invalidRequest(message: "a \(response.status.code) redirect asks for the body again, and a body read as it streams cannot be sent twice"))
        }
        if Origin(target) != Origin(current) {
            next.headerFields = next.headerFields.filter { !secrets.containsHeader($0.name.canonicalName) }
        }
        return (next, nextBody)
    }
}
