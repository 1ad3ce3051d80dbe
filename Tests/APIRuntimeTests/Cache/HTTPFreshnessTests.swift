@testable import APIRuntime
import Foundation
import HTTPTypes
import Testing

/// RFC 9111's freshness rules as a private cache applies them, on headers written by hand.
@Suite("HTTP freshness")
struct HTTPFreshnessTests {
    static let origin = Date(timeIntervalSince1970: 1_700_000_000)

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    static func freshness(_ fields: [(HTTPField.Name, String)], status: Int = 200, requested: Double = 0, received: Double = 0) -> HTTPFreshness {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
        return HTTPFreshness(status: status, headers: headers, requestedAt: origin + requested, receivedAt: origin + received)
    }

    @Test("Directives: case, spaces, quotes, several lines; the first max-age counts; one that is not a number is zero")
    func directives() {
        let control = CacheControl(["Max-Age=60, no-cache=\"Set-Cookie, X-Other\"", " MUST-REVALIDATE ,, stale-if-error=\"300\"", "max-age=5, stale-while-revalidate=30"])
        #expect(control.maxAge == 60)
        #expect(control.noCache)
        #expect(control.mustRevalidate)
        #expect(control.staleIfError == 300)
        #expect(control.staleWhileRevalidate == 30)
        #expect(!control.noStore)
        #expect(CacheControl(["max-age=ten"]).maxAge == 0)
        #expect(CacheControl(["max-age=-1"]).maxAge == 0)
        #expect(CacheControl(["max-age=99999999999999999999999"]).maxAge == CacheControl.maxSeconds)
        #expect(CacheControl(["private, no-store"]).noStore)
        #expect(CacheControl([String]()) == CacheControl())
    }

    @Test("max-age wins over Expires; Expires counts from Date; an Expires that is not a date is stale")
    func lifetime() {
        let expires = Self.httpDate(Self.origin + 120)
        #expect(Self.freshness([(.cacheControl, "max-age=60"), (.expires, expires)]).lifetime == 60)
        #expect(Self.freshness([(.date, Self.httpDate(Self.origin)), (.expires, expires)]).lifetime == 120)
        #expect(Self.freshness([(.expires, "0")]).lifetime == 0)
        #expect(Self.freshness([(.date, Self.httpDate(Self.origin)), (.expires, Self.httpDate(Self.origin - 10))]).lifetime == 0)
    }

    @Test("Without explicit freshness: a tenth of the time since Last-Modified, for a status cacheable by default only")
    func heuristic() {
        let fields: [(HTTPField.Name, String)] = [(.date, Self.httpDate(Self.origin)), (.lastModified, Self.httpDate(Self.origin - 1_000))]
        #expect(Self.freshness(fields).lifetime == 100)
        #expect(Self.freshness(fields, status: 404).lifetime == 100)
        #expect(Self.freshness(fields, status: 500).lifetime == 0)
        #expect(Self.freshness([]).lifetime == 0)
    }

    @Test("Age: the Age header plus the time in flight, or the Date's distance, whichever is more; then the time held")
    func age() {
        // Age 30 and 2 s in flight: 32 s old on arrival, 42 s ten seconds later.
        let aged = Self.freshness([(.cacheControl, "max-age=40"), (.age, "30"), (.date, Self.httpDate(Self.origin + 2))], requested: 0, received: 2)
        #expect(aged.initialAge == 32)
        #expect(aged.age(at: Self.origin + 12) == 42)
        #expect(aged.isFresh(at: Self.origin + 9))
        #expect(!aged.isFresh(at: Self.origin + 10))
        // A Date 50 s before arrival (a clock behind, or a slow proxy) makes it 50 s old.
        let late = Self.freshness([(.cacheControl, "max-age=60"), (.date, Self.httpDate(Self.origin))], received: 50)
        #expect(late.initialAge == 50)
        // A Date in the future counts as no age, not a negative one.
        let ahead = Self.freshness([(.cacheControl, "max-age=60"), (.date, Self.httpDate(Self.origin + 500))])
        #expect(ahead.initialAge == 0)
    }

    @Test("no-cache is stored but never fresh; stale windows hold unless must-revalidate")
    func staleWindows() {
        let noCache = Self.freshness([(.cacheControl, "max-age=60, no-cache")])
        #expect(!noCache.isFresh(at: Self.origin))
        let windows = Self.freshness([(.cacheControl, "max-age=10, stale-while-revalidate=20, stale-if-error=100")])
        #expect(windows.isFresh(at: Self.origin + 9))
        #expect(windows.staleness(at: Self.origin + 25) == 15)
        #expect(windows.mayServeWhileRevalidating(at: Self.origin + 30))
        #expect(!windows.mayServeWhileRevalidating(at: Self.origin + 31))
        #expect(windows.mayServeOnError(at: Self.origin + 110))
        #expect(!windows.mayServeOnError(at: Self.origin + 111))
        let strict = Self.freshness([(.cacheControl, "max-age=10, must-revalidate, stale-if-error=100, stale-while-revalidate=20")])
        #expect(!strict.mayServeOnError(at: Self.origin + 11))
        #expect(!strict.mayServeWhileRevalidating(at: Self.origin + 11))
    }

    @Test("Never stored: no-store, Vary: *, a partial 206")
    func storable() {
        func headers(_ fields: [(HTTPField.Name, String)]) -> HTTPFields {
            var headers = HTTPFields()
            for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
            return headers
        }
        #expect(HTTPFreshness.isStorable(status: 200, headers: headers([(.cacheControl, "max-age=60")])))
        #expect(HTTPFreshness.isStorable(status: 200, headers: headers([(.vary, "Accept-Language, Accept")])))
        #expect(!HTTPFreshness.isStorable(status: 200, headers: headers([(.cacheControl, "max-age=60"), (.cacheControl, "No-Store")])))
        #expect(!HTTPFreshness.isStorable(status: 200, headers: headers([(.vary, "Accept, *")])))
        #expect(!HTTPFreshness.isStorable(status: 206, headers: headers([(.cacheControl, "max-age=60")])))
    }
}
