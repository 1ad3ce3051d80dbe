import Foundation
import NIOConcurrencyHelpers

/// The calls on the wire right now, by identity, for the `reject` frequency policy.
///
/// The key is the whole request identity as text (API, method, URL, body), never a hash of it, so
/// two different calls can never be mistaken for each other. Entries live in a plain dictionary,
/// not an evictable cache: an entry leaves only when its call ends, whatever the outcome.
final class InFlightRequests: Sendable {
    private let keys = NIOLockedValueBox<Set<String>>([])

    static func key(for request: APIRequest) -> String {
        var key = "\(request.api)\n\(request.method.rawValue)\n\(request.url.absoluteString)\n"
        if let body = request.body { key += body.base64EncodedString() }
        return key
    }

    /// Registers a call; false when an identical one is already in flight.
    func begin(_ key: String) -> Bool {
        keys.withLockedValue { $0.insert(key).inserted }
    }

    func end(_ key: String) {
        _ = keys.withLockedValue { $0.remove(key) }
    }

    var count: Int { keys.withLockedValue { $0.count } }
}
