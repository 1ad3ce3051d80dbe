import APIWireFormat
import Foundation
import HTTPTypes

/// An `HTTPTransport` as the manager uses it: the call's request goes out with its body (whole,
/// or streamed when it is a file or a sequence), and the reply's body is read whole (up to
/// `maxResponseBytes`), so that interceptors and protocols see whole requests and replies;
/// unless the request streams its reply's body (a download, an event stream) and the reply is a
/// success, which is then handed on unread. Redirects are followed here, as `redirects` says;
/// the transports themselves follow none.
struct HTTPCallTransport: CallTransport {
    let transport: any HTTPTransport
    let maxResponseBytes: Int
    /// What a streamed reply's reader may take.
    let limits: ReplyLimits
    let redirects: RedirectPolicy
    /// The TLS settings the transport was made with, for its host.
    let tls: TLSSettings
    /// Every host's TLS settings, by `HostName.key`: a redirect to a host whose settings
    /// differ from these is refused, since the transport would reach it with the wrong ones.
    let tlsByHost: [String: TLSSettings]
    /// The manager's cookies, when the transport keeps them: each reply's `Set-Cookie` goes here,
    /// and each redirect takes the cookies for where it leads from here.
    let cookies: CookieJar?

    init(
        _ transport: any HTTPTransport, maxResponseBytes: Int, limits: ReplyLimits = ReplyLimits(), redirects: RedirectPolicy = .standard,
        tls: TLSSettings = .standard, tlsByHost: [String: TLSSettings] = [:], cookies: CookieJar? = nil
    ) {
        self.transport = transport
        self.maxResponseBytes = maxResponseBytes
        self.limits = limits
        self.redirects = redirects
        self.tls = tls
        self.tlsByHost = tlsByHost
        self.cookies = cookies
    }

    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        do {
            var head = request.head
            let outgoing = request.streamedBody ?? request.body.map(HTTPBody.init)
            var (response, body) = try await transport.send(head, body: outgoing)
            keepCookies(of: response, from: head)
            var changedCredentials = false
            if let next = try redirects.next(after: response, to: head, body: outgoing, followed: 0, api: request.api) {
                (head, response, body) = try await follow(next, of: request, leaving: body)
                changedCredentials = Credentials(head) != Credentials(request.head)
            }
            // A body with a content coding reaches its reader decoded (both transports decode
            // gzip), and its Content-Length counts the encoded bytes, not what the reader gets.
            if let coding = response.headerFields[.contentEncoding], coding.lowercased() != "identity", case .known = body.length {
                body = HTTPBody(body, length: .unknown, iterationBehavior: body.iterationBehavior)
            }
            if let reporter = ProgressReporter.current, response.status.kind == .successful {
                body = body.reportingDownload(to: reporter)
            }
            if request.streamsResponseBody, response.status.kind == .successful {
                var reply = APIResponse(status: response.status, headerFields: response.headerFields)
                reply.streamedBody = body
                reply.limits = limits
                reply.redirectChangedCredentials = changedCredentials
                return reply
            }
            let bytes = try await body.collect(upTo: maxResponseBytes)
            var reply = APIResponse(status: response.status, headerFields: response.headerFields, body: bytes)
            reply.redirectChangedCredentials = changedCredentials
            return reply
        } catch let error as HTTPBody.TooLarge {
            throw APIError(api: request.api, reason: .invalidResponse(message: error.description), underlying: error)
        } catch let error as APIError {
            throw error
        } catch let error as TLSFailure {
            throw APIError(api: request.api, reason: .tls(error), underlying: error)
        } catch {
            throw APIError(api: request.api, reason: Task.isCancelled ? .cancelled : .transport(message: "\(error)"), underlying: error)
        }
    }

    /// Follows the redirect to `first` and those after it, as `redirects` allows, from the
    /// reply whose body is `body`; returns the last request and its reply.
    private func follow(
        _ first: (request: HTTPRequest, body: HTTPBody?), of request: APIRequest, leaving body: HTTPBody
    ) async throws -> (HTTPRequest, HTTPResponse, HTTPBody) {
        var next = first
        var body = body
        var followed = 0
        while true {
            // The redirect's own body is read (a little of it) so the connection can be reused.
            _ = try? await body.collect(upTo: 64 * 1024)
            // Over TLS, the transport would reach the new host with its first host's settings.
            if next.request.scheme == "https", let host = next.request.url?.host, (tlsByHost[HostName.key(host)] ?? .standard) != tls {
                throw APIError(api: request.api, reason: .invalidResponse(
                    message: "a redirect to \(host), whose TLS settings differ from those of the host it came from, is refused"
                ))
            }
            // The jar's cookies for where the redirect leads, in place of those it had for where
            // the call began, or of none where the redirect dropped the call's own at another
            // origin.
            if let cookies, request.carriesJarCookies || next.request.headerFields[.cookie] == nil, let url = next.request.url {
                next.request.headerFields[.cookie] = cookies.header(for: url)
            }
            let response: HTTPResponse
            (response, body) = try await transport.send(next.request, body: next.body)
            keepCookies(of: response, from: next.request)
            followed += 1
            guard let after = try redirects.next(after: response, to: next.request, body: next.body, followed: followed, api: request.api) else {
                return (next.request, response, body)
            }
            next = after
        }
    }

    func shutdown() async {
        await transport.shutdown()
    }

    private func keepCookies(of response: HTTPResponse, from request: HTTPRequest) {
        guard let cookies, let url = request.url else { return }
        cookies.keep(response.headerFields, from: url)
    }
}
