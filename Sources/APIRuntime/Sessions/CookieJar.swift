import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import NIOConcurrencyHelpers

/// Which cookies a manager's URLSession transports keep and send.
public enum CookiePolicy: Sendable, Hashable {
    /// A jar of the manager's own, in memory: cookies one of its calls receives are sent by its
    /// later calls (to any host they match), never by another manager's, and are gone when the
    /// app quits. The default.
    case perManager
    /// The system's jar (`HTTPCookieStorage.shared`), shared with every manager that says so and
    /// with `URLSession.shared`; on Apple platforms it persists across launches.
    case system
    /// No cookies kept or sent (but those a call's headers carry).
    case none
}

/// The cookies one manager's calls share. The manager adds them to each request of a transport
/// that keeps cookies (`TransportFactory.keepsCookies`: URLSession's; AsyncHTTPClient's keeps
/// none) once the interceptors have adapted it and before the cache and the duplicate gate read
/// it, so that a request is keyed as it is sent, and keeps what each reply sets.
public final class CookieJar: @unchecked Sendable {
    /// Which cookies the jar keeps: the manager's own, the system's, or none.
    public let policy: CookiePolicy
    private let lock = NIOLock()
    /// The jar of `.perManager`, made at first use; guarded by `lock`.
    private var own: HTTPCookieStorage?

    /// A jar that keeps cookies as `policy` says; a `.perManager` jar is made empty at first use.
    public init(policy: CookiePolicy) {
        self.policy = policy
    }

    /// The storage a URLSession should use, or nil for none.
    public var storage: HTTPCookieStorage? {
        switch policy {
        case .none:
            return nil
        case .system:
            return .shared
        case .perManager:
            return lock.withLock {
                if let own { return own }
                // An ephemeral configuration comes with a cookie storage of its own, in memory:
                // the one way to make one that Foundation offers on every platform.
                let made = URLSessionConfiguration.ephemeral.httpCookieStorage
                own = made
                return made
            }
        }
    }

    /// Adds the cookies the jar holds for the request's URL, in one `Cookie` field, unless the
    /// request carries one of its own.
    func attach(to request: inout APIRequest) {
        guard request.headerFields[.cookie] == nil, let url = request.url, let header = header(for: url) else { return }
        request.headerFields[.cookie] = header
        request.carriesJarCookies = true
    }

    /// The `Cookie` field for `url`: the jar's cookies that match it; nil when there are none.
    func header(for url: URL) -> String? {
        // A jar of the manager's own that no reply has filled yet holds nothing: not made for this.
        guard policy != .perManager || lock.withLock({ own != nil }), let storage, let cookies = storage.cookies(for: url), !cookies.isEmpty else {
            return nil
        }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// Keeps the cookies a reply from `url` sets (its `Set-Cookie` fields).
    func keep(_ fields: HTTPFields, from url: URL) {
        let lines = fields[values: .setCookie]
        guard !lines.isEmpty, let storage else { return }
        // One field at a time: a field's `Expires` date has a comma, which joining them would blur.
        let cookies = lines.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }
}
