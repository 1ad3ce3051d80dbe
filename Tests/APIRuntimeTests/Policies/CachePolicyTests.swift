@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import Testing

/// The response cache's policies on a manual clock, a scripted transport answering: when a stored
/// reply answers, when the network does, and what a call gets when the two disagree. The same
/// rules against a real server are in `APIWireTests/Cache`.
@Suite("The response cache's policies, without sockets")
struct CachePolicyTests {
    static let defaults = APIDefaults(baseURL: "https://api.example.com/v1", timeout: .seconds(30))

    static func definition(_ cache: CacheSettings) -> APIDefinition {
        APIDefinition(name: "GetUser", wire: .http(.get, path: "/users/7"), tags: ["users"], cache: cache, defaults: defaults)
    }

    /// `GET /users/7` read as text.
    static func user(_ cache: CacheSettings, policy: CachePolicy? = nil) -> BaseAPI<String> {
        let api = BaseAPI(definition: definition(cache), response: .text)
        api.options.cachePolicy = policy
        return api
    }

    /// The age of a reply the cache answered while fresh; nil for any other source.
    static func cacheAge(_ source: ReplySource) -> Double? {
        if case .cache(let age) = source { return age }
        return nil
    }

    /// A text reply with `Cache-Control: max-age=60` unless told otherwise.
    static func reply(_ text: String, status: HTTPResponse.Status = .ok, cacheControl: String = "max-age=60") -> (HTTPResponse, Data) {
        (HTTPResponse(status: status, headerFields: [.contentType: "text/plain", .cacheControl: cacheControl]), Data(text.utf8))
    }

    /// Runs `body` with a manager whose transport answers its `n`th request (from 1) with
    /// `answer(n)`, and a way to read how many it was asked.
    static func withCache(
        _ answer: @escaping @Sendable (Int, ManualClock) async throws -> (HTTPResponse, Data),
        body: (APIManager, ManualClock, @escaping @Sendable () -> Int) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        let requests = NIOLockedValueBox(0)
        try await withScriptedManager(clock: clock, configure: { $0.cache = .memory() }, respond: { _ in
            try await answer(requests.withLockedValue { $0 += 1; return $0 }, clock)
        }) { manager in
            try await body(manager, clock) { requests.withLockedValue { $0 } }
        }
    }

    @Test("A fresh reply answers with nothing sent; once its lifetime has passed, the network answers")
    func freshThenExpired() async throws {
        try await Self.withCache({ n, _ in Self.reply("v\(n)") }) { manager, clock, requests in
            let api = Self.user(.http).using(manager)
            #expect(try await api.start() == "v1")
            clock.advance(by: .seconds(59))
            let hit = try await api.startWithMetadata()
            #expect(hit.value == "v1" && Self.cacheAge(hit.source) == 59)
            #expect(requests() == 1)
            clock.advance(by: .seconds(2))
            let miss = try await api.startWithMetadata()
            #expect(miss.value == "v2" && !miss.source.isFromCache)
            #expect(requests() == 2)
        }
    }

    @Test("A manifest's ttl sets the lifetime whatever the server's max-age says")
    func ttlOverServer() async throws {
        try await Self.withCache({ n, _ in Self.reply("v\(n)", cacheControl: "max-age=3600") }) { manager, clock, requests in
            let api = Self.user(CacheSettings(ttl: 5)).using(manager)
            let first = try await api.start()
            clock.advance(by: .seconds(6))
            let second = try await api.start()
            #expect(first == "v1" && second == "v2")
            #expect(requests() == 2)
        }
    }

    @Test("cacheOnly with nothing stored fails as notCached and sends nothing; reload always asks the network")
    func cacheOnlyAndReload() async throws {
        try await Self.withCache({ n, _ in Self.reply("v\(n)") }) { manager, _, requests in
            let missing = await expectAPIError { try await Self.user(.http, policy: .cacheOnly).using(manager).start() }
            #expect(missing?.reason == .notCached)
            #expect(requests() == 0)
            let stored = try await Self.user(.http).using(manager).start()
            let reloaded = try await Self.user(.http, policy: .reload).using(manager).start()
            let kept = try await Self.user(.http, policy: .cacheOnly).using(manager).start()
            #expect([stored, reloaded, kept] == ["v1", "v2", "v2"])
            #expect(requests() == 2)
        }
    }

    @Test("A stored reply the API's type no longer reads is dropped and the network answers; asked for the cache alone, the call fails as notCached")
    func undecodableStoredReply() async throws {
        try await Self.withCache({ n, _ in n == 1 ? Self.reply("ann") : Self.reply("42") }) { manager, _, requests in
            #expect(try await Self.user(.http).using(manager).start() == "ann")
            // The same call read as a number, as an app update that changed the model reads it.
            let number = BaseAPI<Int>(definition: Self.definition(.http), response: .json).using(manager)
            number.options.cachePolicy = .cacheOnly
            let error = await expectAPIError { try await number.start() }
            #expect(error?.reason == .notCached)
            #expect(requests() == 1)
            // Dropped: asked again from the cache alone, nothing is stored; the network answers the next.
            #expect(await expectAPIError { try await number.start() }?.reason == .notCached)
            number.options.cachePolicy = nil
            let reply = try await number.startWithMetadata()
            #expect(reply.value == 42 && !reply.source.isFromCache)
            #expect(requests() == 2)

            // Stored as a number now, a text reader still reads it from the cache.
            #expect(try await Self.user(.http).using(manager).startWithMetadata().source.isFromCache)
        }
    }

    @Test("A reply past its lifetime but within stale-if-error stands in for a 503, and says so")
    func staleIfError() async throws {
        try await Self.withCache({ n, _ in n == 1 ? Self.reply("v1") : Self.reply("down", status: .serviceUnavailable) }) { manager, clock, requests in
            let api = Self.user(CacheSettings(ttl: 1, staleIfError: 600)).using(manager)
            #expect(try await api.start() == "v1")
            clock.advance(by: .seconds(10))
            let reply = try await api.startWithMetadata()
            #expect(reply.value == "v1")
            guard case .stale(let age, .error(let error)) = reply.source else {
                Issue.record("expected a stale reply standing in for an error, got \(reply.source)")
                return
            }
            #expect(age == 10)
            #expect(error.reason == .httpStatus(code: 503, body: Data("down".utf8)))
            #expect(requests() == 2)
            // Past the window, the error is the call's.
            clock.advance(by: .seconds(600))
            #expect(await expectAPIError { try await api.start() }?.reason == .httpStatus(code: 503, body: Data("down".utf8)))
        }
    }

    @Test("A stale reply within stale-while-revalidate is served at once, and revalidated in the background within a deadline of its own, which cancelAll reaches")
    func staleWhileRevalidate() async throws {
        try await Self.withCache({ n, clock in
            // The background revalidation hangs until its deadline cancels it.
            if n == 2 { try await clock.sleep(for: .seconds(3600)) }
            return Self.reply("v\(n)", cacheControl: "max-age=1")
        }) { manager, clock, requests in
            let api = Self.user(CacheSettings(staleWhileRevalidate: 600)).using(manager)
            #expect(try await api.start() == "v1")
            clock.advance(by: .seconds(10))
            let stale = try await api.startWithMetadata()
            guard case .stale(10, .revalidating) = stale.source, stale.value == "v1" else {
                Issue.record("expected v1 served stale while revalidating, got \(stale.value) from \(stale.source)")
                return
            }

            // The revalidation waits on its transport's hour, within the call's 30 s from when it
            // started: running at 39 s, ended at 40 s.
            try await waitUntil { clock.pending.contains(.seconds(3610)) }
            #expect(requests() == 2)
            #expect(manager.running.count == 1)
            clock.advance(by: .seconds(29))
            try await Task.sleep(for: .milliseconds(50))
            #expect(manager.running.count == 1)
            clock.advance(by: .seconds(1))
            try await waitUntil { manager.running.count == 0 }

            // The next one: stale again, and its revalidation answers; cancelAll reaches a revalidation too.
            #expect(try await api.startWithMetadata().source.isFromCache)
            try await waitUntil { requests() == 3 && manager.running.count == 0 }
            let refreshed = try await api.startWithMetadata()
            #expect(refreshed.value == "v3" && Self.cacheAge(refreshed.source) == 0)
        }
    }

    @Test("cancelAll cancels a revalidation running in the background")
    func cancelAllReachesRevalidation() async throws {
        try await Self.withCache({ n, clock in
            if n == 2 { try await clock.sleep(for: .seconds(3600)) }
            return Self.reply("v\(n)", cacheControl: "max-age=1")
        }) { manager, clock, _ in
            let api = Self.user(CacheSettings(staleWhileRevalidate: 600)).using(manager)
            _ = try await api.start()
            clock.advance(by: .seconds(10))
            _ = try await api.start()
            try await waitUntil { manager.running.count == 1 && clock.pending.contains(.seconds(3610)) }
            #expect(manager.cancelAll() == 1)
            try await waitUntil { manager.running.count == 0 && !clock.pending.contains(.seconds(3610)) }
        }
    }
}
