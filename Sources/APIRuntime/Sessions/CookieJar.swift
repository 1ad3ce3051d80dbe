import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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

/// The cookies one manager's sessions share. Transports that keep cookies take their storage from
/// here; AsyncHTTPClient keeps none.
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
}
