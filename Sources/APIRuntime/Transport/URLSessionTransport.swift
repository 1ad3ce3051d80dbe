import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import HTTPTypesFoundation
import NIOConcurrencyHelpers

/// The default HTTP transport: one `URLSession` per host, so that calls get the system's proxy
/// settings and, on Apple platforms, cellular and VPN on demand. On Linux it is
/// FoundationNetworking's URLSession. It keeps no cookies itself: the manager adds its own to each
/// request and keeps what replies set (`CookieJar`). It answers nothing from a URL cache.
///
/// A response's body streams: its chunks reach the reader as URLSession delivers them. On Apple
/// platforms the task is suspended while more than a megabyte waits unread, so that a slow reader
/// slows the download instead of filling memory; FoundationNetworking (Linux) cannot pause a
/// transfer (suspending one mid-body restarts it), so there a body arrives as fast as the server
/// sends it: AsyncHTTPClient is the transport for large downloads on Linux.
///
/// A request body read from a file is uploaded from that file. A body that streams from elsewhere
/// is first written to a temporary file, which is uploaded and then removed: file uploads are
/// what URLSession supports everywhere (background sessions allow nothing else, and
/// FoundationNetworking reads an upload's `InputStream` only as far as it has bytes at hand), and
/// they send a `Content-Length`. The cost is that the upload starts once the body has ended; a
/// request body that must reach the server while it is still being made needs
/// AsyncHTTPClient.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let exchanges: ExchangeTable
    /// Where streamed request bodies are written before they are uploaded.
    private let temporaryDirectory: URL

    /// A session of its own with `URLSessionConfiguration.default`, the settings' connection cap,
    /// no cookie storage (the manager keeps the cookies) and no URL cache; streamed request bodies
    /// are written to `temporaryDirectory` before they are uploaded.
    public convenience init(settings: SessionSettings, temporaryDirectory: URL = FileManager.default.temporaryDirectory) {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = settings.maxConnectionsPerHost
        // The manager keeps and sends the cookies (`CookieJar`), so that a request is keyed as it
        // is sent: the session has none of its own.
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        // URLCache keys a reply by its URL alone: it could answer one account's call with
        // another's reply, and it knows nothing of the manager's deadlines or coalescing.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The manager owns each call's deadline; URLSession's own idle timeouts would cut a call
        // the manager still allows.
        configuration.timeoutIntervalForRequest = 7 * 24 * 3600
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        self.init(configuration: configuration, tls: settings.tls, temporaryDirectory: temporaryDirectory)
    }

    /// A session made from `configuration` (a background or ephemeral one, say); streamed request
    /// bodies are written to `temporaryDirectory` before they are uploaded. On Apple platforms
    /// servers are checked and client certificates presented as `tls` says; on Linux only
    /// `.standard` can be honoured (`TransportFactory.urlSession` refuses others).
    public init(
        configuration: URLSessionConfiguration, tls: TLSSettings = .standard,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) {
        let exchanges = ExchangeTable(tls: tls)
        self.exchanges = exchanges
        self.temporaryDirectory = temporaryDirectory
        self.session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
    }

    /// Sends `request` as a URLSession data task, or an upload task from a file for a file or streamed body; returns when the head arrives, and the body streams in after it.
    public func send(_ request: HTTPRequest, body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody) {
        guard let url = request.url else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // The request's own `Cookie` field goes as it is, and a reply's `Set-Cookie` is the
        // manager's to keep, whatever a configuration given to `init(configuration:)` says.
        urlRequest.httpShouldHandleCookies = false
        // Field by field, as the values are: HTTPTypesFoundation's conversion would re-encode
        // values that are not ASCII as Latin-1.
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        var uploadFile: URL?
        var temporaryFile: URL?
        if let data = body?.data {
            urlRequest.httpBody = data
        } else if let file = body?.fileURL {
            // FoundationNetworking uploads a symbolic link's own bytes, not the file's.
            uploadFile = file.resolvingSymlinksInPath()
        } else if let body {
            temporaryFile = try await body.writeToTemporaryFile(in: temporaryDirectory)
            uploadFile = temporaryFile
        }
        let exchange = Exchange(removingWhenDone: temporaryFile, reportingTo: ProgressReporter.current)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { head in
                let task = uploadFile.map { session.uploadTask(with: urlRequest, fromFile: $0) } ?? session.dataTask(with: urlRequest)
                guard exchange.start(task, awaitingHead: head) else {
                    // Made and never resumed: cancelled, so that the session lets go of it.
                    task.cancel()
                    return
                }
                exchanges.add(exchange, for: task)
                // A cancel that came in between left the task to this: not resumed, cancelled.
                guard exchange.resume() else {
                    exchanges.remove(task)
                    task.cancel()
                    return
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// Lets the session's tasks finish, then invalidates it.
    public func shutdown() async {
        session.finishTasksAndInvalidate()
    }

    /// How many requests are in flight: sent, and their end not yet reported by URLSession.
    package var requestsInFlight: Int { exchanges.count }
}

/// One request in flight: its head is awaited once, then its body streams to the reader.
///
/// Cancelling fails the awaited head at once rather than waiting for URLSession to report the
/// cancelled task; URLSession reports it later, even one cancelled before it was resumed, and
/// the exchange leaves the table then.
private final class Exchange: Sendable {
    private struct State {
        var task: URLSessionTask?
        /// Whether the task has been resumed: only then is a cancel the task's.
        var resumed = false
        var head: CheckedContinuation<(HTTPResponse, HTTPBody), any Error>?
        var cancelled = false
        /// Bytes received and not yet read.
        var unread = 0
        /// Whether the task is suspended until the reader catches up.
        var paused = false
        /// Why the delegate refused the server or could not present the client's certificate.
        var tlsFailure: TLSFailure?
        /// Whether the reply was a server's request for credentials, answered with its response.
        var answeredChallenge = false
        /// The body's chunks until the reader takes them: once handed on, only the reader holds
        /// them, so a body let go of frees what it had buffered even while URLSession still holds
        /// this exchange.
        var chunks: AsyncThrowingStream<Data, any Error>?
    }

    /// Past this many unread bytes the download pauses; it goes on once the reader is below
    /// `resumeBelow`.
    static let pauseAbove = 1 << 20
    static let resumeBelow = 256 << 10
    /// Whether suspending a task pauses its transfer: FoundationNetworking takes the transfer off
    /// libcurl's multi handle, which ends it, and sends the request again on resuming.
    #if canImport(Darwin)
    static let pausesDownloads = true
    #else
    static let pausesDownloads = false
    #endif

    private let chunkSink: AsyncThrowingStream<Data, any Error>.Continuation
    /// Guards the task, the awaited head, whether the call was cancelled, and the flow of its body.
    private let state = NIOLockedValueBox(State())
    /// A temporary file the request body was uploaded from, removed when the exchange ends.
    private let temporaryFile: URL?
    /// Told of the request body's bytes as URLSession sends them.
    private let progress: ProgressReporter?

    init(removingWhenDone temporaryFile: URL?, reportingTo progress: ProgressReporter?) {
        self.temporaryFile = temporaryFile
        self.progress = progress
        let (chunks, chunkSink) = AsyncThrowingStream.makeStream(of: Data.self)
        self.chunkSink = chunkSink
        state.withLockedValue { $0.chunks = chunks }
        chunkSink.onTermination = { [state] termination in
            // A reader that stops early (or is cancelled) stops the download.
            if case .cancelled = termination { state.withLockedValue { $0.task }?.cancel() }
        }
    }

    /// Records `task` and the awaited head; false, with the head failed, when the call was
    /// cancelled first and the task must not start.
    func start(_ task: URLSessionTask, awaitingHead head: CheckedContinuation<(HTTPResponse, HTTPBody), any Error>) -> Bool {
        let cancelled = state.withLockedValue { state in
            if !state.cancelled {
                state.task = task
                state.head = head
            }
            return state.cancelled
        }
        if cancelled {
            head.resume(throwing: CancellationError())
            removeTemporaryFile()
        }
        return !cancelled
    }

    /// Resumes the task `start` recorded, unless the call was cancelled since: false then, and the
    /// task is its starter's to cancel.
    func resume() -> Bool {
        let task = state.withLockedValue { state -> URLSessionTask? in
            guard !state.cancelled else { return nil }
            state.resumed = true
            return state.task
        }
        task?.resume()
        return task != nil
    }

    /// Fails the awaited head, and cancels the task once it has been resumed (before that, the
    /// starter sees the cancel and does not resume it).
    func cancel() {
        let (task, head) = state.withLockedValue { state in
            state.cancelled = true
            defer { state.head = nil }
            return (state.resumed ? state.task : nil, state.head)
        }
        head?.resume(throwing: CancellationError())
        task?.cancel()
    }

    func receive(_ response: URLResponse) {
        guard let head = takeHead() else { return }
        guard let httpResponse = (response as? HTTPURLResponse)?.httpResponse else {
            head.resume(throwing: URLError(.badServerResponse))
            cancel()
            return
        }
        let length: HTTPBody.Length = response.expectedContentLength >= 0 ? .known(response.expectedContentLength) : .unknown
        head.resume(returning: (httpResponse, HTTPBody(ResponseChunks(base: takeChunks(), exchange: self), length: length)))
    }

    /// The body's chunks, for the one reader; an empty stream if they were taken before.
    private func takeChunks() -> AsyncThrowingStream<Data, any Error> {
        state.withLockedValue { state in
            defer { state.chunks = nil }
            return state.chunks
        } ?? AsyncThrowingStream { $0.finish() }
    }

    func receive(_ data: Data) {
        let (cancelled, pause) = state.withLockedValue { state -> (Bool, URLSessionTask?) in
            // What arrives after a cancel has no reader: dropped, not buffered.
            guard !state.cancelled else { return (true, nil) }
            state.unread += data.count
            guard Self.pausesDownloads, !state.paused, state.unread > Self.pauseAbove else { return (false, nil) }
            state.paused = true
            return (false, state.task)
        }
        guard !cancelled else { return }
        chunkSink.yield(data)
        pause?.suspend()
    }

    func sent(_ total: Int64, of expected: Int64) {
        progress?.uploaded(total, of: expected > 0 ? expected : nil)
    }

    /// The reader has taken `count` bytes.
    func read(_ count: Int) {
        let resume = state.withLockedValue { state in
            state.unread -= count
            guard state.paused, state.unread < Self.resumeBelow else { return nil as URLSessionTask? }
            state.paused = false
            return state.task
        }
        resume?.resume()
    }

    /// Hands on a server's request for credentials (a 401 with `WWW-Authenticate`) as the reply,
    /// with the body that came before the challenge, if any (URLSession keeps the rest while it
    /// asks); the task then ends cancelled, which is no failure.
    func answer(_ challengeResponse: URLResponse?) {
        state.withLockedValue { $0.answeredChallenge = true }
        if let head = takeHead() {
            if let httpResponse = (challengeResponse as? HTTPURLResponse)?.httpResponse {
                head.resume(returning: (httpResponse, HTTPBody(ResponseChunks(base: takeChunks(), exchange: self), length: .unknown)))
            } else {
                head.resume(throwing: URLError(.userAuthenticationRequired))
            }
        }
        chunkSink.finish()
    }

    /// Fails the exchange with `failure` once URLSession reports the refused challenge.
    func refuse(_ failure: TLSFailure) {
        state.withLockedValue { $0.tlsFailure = failure }
    }

    func complete(with error: (any Error)?, host: String) {
        // A finished task is not cancelled again: FoundationNetworking crashes when it is asked
        // to cancel a task it has already taken out of its registry.
        let (refused, answered) = state.withLockedValue { state in
            state.task = nil
            return (state.tlsFailure, state.answeredChallenge)
        }
        if answered {
            removeTemporaryFile()
            return
        }
        let failure = error.map { error -> any Error in
            if let refused { return refused }
            if let urlError = error as? URLError {
                if urlError.code == .cancelled { return CancellationError() }
                if let failure = TLSFailure(urlError, host: host) { return failure }
            }
            return TLSFailure(curlError: error, host: host) ?? URLSessionFailure(error)
        }
        removeTemporaryFile()
        takeHead()?.resume(throwing: failure ?? URLError(.badServerResponse))
        chunkSink.finish(throwing: failure)
    }

    private func removeTemporaryFile() {
        if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
    }

    private func takeHead() -> CheckedContinuation<(HTTPResponse, HTTPBody), any Error>? {
        state.withLockedValue { state in
            defer { state.head = nil }
            return state.head
        }
    }
}

/// The session's delegate: it hands each task's events to that task's exchange.
private final class ExchangeTable: NSObject, URLSessionDataDelegate, Sendable {
    /// Guards the exchanges in flight, by task identifier.
    private let exchanges = NIOLockedValueBox<[Int: Exchange]>([:])
    /// How servers are checked and what certificate the client presents.
    private let tls: TLSSettings

    init(tls: TLSSettings) {
        self.tls = tls
    }

    func add(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLockedValue { $0[task.taskIdentifier] = exchange }
    }

    /// Forgets the exchange of a task that was never resumed, of which URLSession may report
    /// nothing.
    func remove(_ task: URLSessionTask) {
        exchanges.withLockedValue { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// How many exchanges are in flight: URLSession has not yet reported their end.
    var count: Int { exchanges.withLockedValue { $0.count } }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLockedValue { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchange(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    /// Follows no redirect: the 3xx is the task's response, and the manager decides
    /// (`RedirectPolicy`), the same for every transport.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Checks the server as the host's `TLSSettings` say, and presents the client's identity. A
    /// server asking for credentials (a 401 with `WWW-Authenticate`) gets none from URLSession:
    /// credentials are the interceptors' business, so the 401 is the reply.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let space = challenge.protectionSpace
        #if canImport(Security)
        switch space.authenticationMethod {
        case NSURLAuthenticationMethodServerTrust where tls != .standard:
            guard let trust = space.serverTrust else { return completionHandler(.cancelAuthenticationChallenge, nil) }
            if let failure = ServerTrustEvaluation(settings: tls, host: space.host).failure(of: trust) {
                exchange(for: task)?.refuse(failure)
                completionHandler(.cancelAuthenticationChallenge, nil)
            } else {
                completionHandler(.useCredential, URLCredential(trust: trust))
            }
        case NSURLAuthenticationMethodClientCertificate:
            guard let identity = tls.clientIdentity else { return completionHandler(.performDefaultHandling, nil) }
            do {
                let credential = URLCredential(identity: try identity.secIdentity(host: space.host), certificates: nil, persistence: .forSession)
                completionHandler(.useCredential, credential)
            } catch {
                exchange(for: task)?.refuse(error)
                completionHandler(.cancelAuthenticationChallenge, nil)
            }
        default:
            completionHandler(.performDefaultHandling, nil)
        }
        #else
        // FoundationNetworking asks only for HTTP authentication, and neither its default
        // handling (which waits for ever) nor any other answer hands on the 401: the exchange
        // answers with the challenge's response itself, and the task is cancelled.
        _ = space
        exchange(for: task)?.answer(challenge.failureResponse)
        completionHandler(.cancelAuthenticationChallenge, nil)
        #endif
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.sent(totalBytesSent, of: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLockedValue { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(with: error, host: task.originalRequest?.url?.host ?? "")
    }
}

/// A response's chunks as its reader sees them: a read whose task is cancelled fails, where
/// `AsyncThrowingStream` would end the body early as though it were whole.
private struct ResponseChunks: AsyncSequence, Sendable {
    let base: AsyncThrowingStream<Data, any Error>
    /// Told of each chunk read, so that it can let a paused download go on.
    let exchange: Exchange
    /// Ends the exchange when the body is let go, read or not.
    private let lifetime: BodyLifetime

    init(base: AsyncThrowingStream<Data, any Error>, exchange: Exchange) {
        self.base = base
        self.exchange = exchange
        self.lifetime = BodyLifetime(exchange: exchange)
    }

    /// Cancels the exchange once nothing holds its body any more: a reply its reader gave up on
    /// (too large, a redirect's, a decoder that failed, a loop left early) must not go on
    /// arriving, which on Linux, where FoundationNetworking cannot pause a transfer, fills memory.
    /// A body read to its end has nothing left to cancel.
    fileprivate final class BodyLifetime: Sendable {
        let exchange: Exchange

        init(exchange: Exchange) {
            self.exchange = exchange
        }

        deinit {
            exchange.cancel()
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Data, any Error>.AsyncIterator
        let exchange: Exchange
        fileprivate let lifetime: BodyLifetime

        mutating func next() async throws -> Data? {
            if let chunk = try await base.next() {
                exchange.read(chunk.count)
                return chunk
            }
            try Task.checkCancellation()
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), exchange: exchange, lifetime: lifetime)
    }
}

extension TLSFailure {
    /// What URLSession's TLS error codes mean; nil for other errors.
    init?(_ error: URLError, host: String) {
        let kind: Kind
        switch error.code {
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            kind = .untrustedCertificate
        case .clientCertificateRequired, .clientCertificateRejected:
            kind = .clientCertificateRefused
        case .secureConnectionFailed:
            kind = .handshake
        default:
            return nil
        }
        self.init(kind: kind, host: host, message: error.localizedDescription)
    }

    /// FoundationNetworking (Linux) reports libcurl's TLS failures with an unknown code and
    /// libcurl's own message (`SSL certificate problem: self-signed certificate`).
    init?(curlError error: any Error, host: String) {
        #if canImport(Darwin)
        return nil
        #else
        let message = (error as NSError).localizedDescription
        if message.hasPrefix("SSL certificate problem") {
            self.init(kind: .untrustedCertificate, host: host, message: message)
        } else if message.hasPrefix("SSL peer certificate or SSH remote key was not OK") {
            self.init(kind: .untrustedCertificate, host: host, message: message)
        } else {
            return nil
        }
        #endif
    }
}

/// A URLSession error as a call reports it: what went wrong and its code, never the URL it
/// failed on (Foundation's errors carry it in their user info, and its query may hold a secret).
struct URLSessionFailure: Error, CustomStringConvertible {
    let code: Int

    init(_ error: any Error) {
        self.code = (error as NSError).code
    }

    var description: String {
        let what = switch code {
        case NSURLErrorTimedOut: "timed out"
        case NSURLErrorCannotFindHost: "cannot find the host"
        case NSURLErrorCannotConnectToHost: "cannot connect to the host"
        case NSURLErrorNetworkConnectionLost: "the connection was lost"
        case NSURLErrorNotConnectedToInternet: "not connected to the internet"
        case NSURLErrorDNSLookupFailed: "the DNS lookup failed"
        case NSURLErrorBadServerResponse: "a bad server response"
        case NSURLErrorSecureConnectionFailed: "the secure connection failed"
        case NSURLErrorCannotParseResponse: "cannot parse the response"
        default: "URLSession failed"
        }
        return "\(what) (URL error \(code))"
    }
}
