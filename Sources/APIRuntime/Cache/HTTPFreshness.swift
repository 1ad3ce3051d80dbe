import Foundation
import HTTPTypes

/// How long a stored HTTP reply is fresh for and how old it is: RFC 9111, section 4.2, as a
/// private cache computes them. Times are wall-clock dates, so that a reply stored on disk keeps
/// its age across a restart of the app.
package struct HTTPFreshness: Sendable, Equatable, Codable {
    /// The reply's `Cache-Control` directives.
    private(set) var control: CacheControl
    /// Seconds the reply is fresh for, counted from when the origin produced it: `max-age`,
    /// else `Expires` minus `Date`, else a tenth of the time since `Last-Modified` for a status
    /// cacheable by default, else none.
    let lifetime: Double
    /// How old the reply already was when it arrived (RFC 9111's corrected initial age), seconds.
    let initialAge: Double
    /// When the reply arrived.
    let receivedAt: Date

    /// Statuses a cache may store and reuse without explicit freshness (RFC 9110, section 15.1).
    static let cacheableByDefault: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The freshness of a reply with `status` and `headers`, asked for at `requestedAt` and
    /// arrived at `receivedAt`.
    init(status: Int, headers: HTTPFields, requestedAt: Date, receivedAt: Date) {
        control = CacheControl(headers[values: .cacheControl])
        self.receivedAt = receivedAt
        let date = headers[.date].flatMap(HTTPDate.parse) ?? receivedAt
        if let maxAge = control.maxAge {
            lifetime = Double(maxAge)
        } else if let expires = headers[.expires] {
            // An Expires that is not a date means the reply is already stale.
            lifetime = HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else if Self.cacheableByDefault.contains(status), let modified = headers[.lastModified].flatMap(HTTPDate.parse) {
            lifetime = max(0, date.timeIntervalSince(modified)) / 10
        } else {
            lifetime = 0
        }
        let ageValue = headers[.age].flatMap { CacheControl.seconds($0) }.map(Double.init) ?? 0
        let apparentAge = max(0, receivedAt.timeIntervalSince(date))
        let responseDelay = max(0, receivedAt.timeIntervalSince(requestedAt))
        initialAge = max(apparentAge, ageValue + responseDelay)
    }

    /// The freshness a manifest's policy gives a reply that arrived at `receivedAt`, whatever its
    /// headers say: fresh for `lifetime` seconds, then servable for the stale windows the policy
    /// names. What the server says of who may keep the reply and whether it may be served
    /// without asking (`no-store`, `no-cache`, `must-revalidate`, `private`, `public`) is the
    /// server's, which a policy never overrides.
    init(lifetime: Double, staleWhileRevalidate: Int?, staleIfError: Int?, server: CacheControl, receivedAt: Date) {
        var control = CacheControl()
        control.noStore = server.noStore
        control.noCache = server.noCache
        control.mustRevalidate = server.mustRevalidate
        control.isPrivate = server.isPrivate
        control.isPublic = server.isPublic
        control.sharedMaxAge = server.sharedMaxAge
        control.staleWhileRevalidate = staleWhileRevalidate
        control.staleIfError = staleIfError
        self.control = control
        self.lifetime = lifetime
        initialAge = 0
        self.receivedAt = receivedAt
    }

    /// This freshness with stale windows where the server named none (a manifest's `cache:`).
    func withStaleWindows(whileRevalidating: Int?, ifError: Int?) -> HTTPFreshness {
        var freshness = self
        freshness.control.staleWhileRevalidate = control.staleWhileRevalidate ?? whileRevalidating
        freshness.control.staleIfError = control.staleIfError ?? ifError
        return freshness
    }

    /// The reply's age at `now`, seconds.
    func age(at now: Date) -> Double {
        initialAge + max(0, now.timeIntervalSince(receivedAt))
    }

    /// Whether the reply may be used at `now` without asking the server: within its lifetime,
    /// and not marked `no-cache`.
    func isFresh(at now: Date) -> Bool {
        !control.noCache && lifetime > age(at: now)
    }

    /// Seconds the reply has been stale for at `now`; 0 while it is fresh.
    func staleness(at now: Date) -> Double {
        max(0, age(at: now) - lifetime)
    }

    /// Whether a stale reply may still be served at `now` while it is validated in the
    /// background (`stale-while-revalidate`).
    func mayServeWhileRevalidating(at now: Date) -> Bool {
        guard !control.mustRevalidate, !control.noCache, let window = control.staleWhileRevalidate else { return false }
        return staleness(at: now) <= Double(window)
    }

    /// Whether a stale reply may be served at `now` because the server failed (`stale-if-error`).
    func mayServeOnError(at now: Date) -> Bool {
        guard !control.mustRevalidate, let window = control.staleIfError else { return false }
        return staleness(at: now) <= Double(window)
    }

    /// Whether a reply may be stored at all (RFC 9111, section 3): never with `no-store` or
    /// `Vary: *`, nor a partial 206 (this cache does not combine ranges).
    static func isStorable(status: Int, headers: HTTPFields) -> Bool {
        guard status != 206, !CacheControl(headers[values: .cacheControl]).noStore else { return false }
        return !CachedReply.varyNames(in: headers).contains("*")
    }
}
