@testable import APIRuntime
import Foundation
import HTTPTypes
import Testing

@Suite("The cache's memory store")
struct MemoryResponseStoreTests {
    static func reply(_ body: String, tags: Set<String> = [], scope: String? = nil, headers: HTTPFields = [:]) -> CachedReply {
        CachedReply(
            status: .http(.ok), body: Data(body.utf8), headers: headers,
            freshness: HTTPFreshness(lifetime: 60, staleWhileRevalidate: nil, staleIfError: nil, server: CacheControl(), receivedAt: Date()),
            variants: [:], tags: tags, scope: scope
        )
    }

    @Test("Replies are removed by key, by tag, by credential, or all at once")
    func removal() {
        let store = MemoryResponseStore(maxBytes: 1 << 20)
        store.store(Self.reply("ann", tags: ["users"], scope: "alice"), for: "GET /users/1 alice")
        store.store(Self.reply("ann", tags: ["users"], scope: "bob"), for: "GET /users/1 bob")
        store.store(Self.reply("3", tags: ["count"], scope: "alice"), for: "GET /count alice")
        store.store(Self.reply("public"), for: "GET /motd")
        #expect(store.count == 4)
        #expect(store.removeAll(tagged: "users") == 2)
        #expect(store.reply(for: "GET /users/1 bob") == nil)
        #expect(store.removeAll(scope: "alice") == 1)
        #expect(store.reply(for: "GET /motd")?.body == Data("public".utf8))
        store.remove("GET /motd")
        #expect(store.count == 0 && store.bytes == 0)
        store.store(Self.reply("x"), for: "k")
        store.removeAll()
        #expect(store.count == 0 && store.bytes == 0 && store.maxBytes == 1 << 20)
    }

    @Test("100,000 distinct replies, stored from eight tasks at once, keep the bytes within the bound")
    func bounded() async {
        let store = MemoryResponseStore(maxBytes: 4 << 20)
        await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var most = 0
                    for index in stride(from: worker, to: 100_000, by: 8) {
                        store.store(Self.reply(String(repeating: "x", count: index % 2_000)), for: "GET /items/\(index)")
                        most = max(most, store.bytes)
                    }
                    return most
                }
            }
            for await most in group { #expect(most <= 4 << 20) }
        }
        #expect(store.bytes <= 4 << 20)
        #expect(store.count > 1_000)
    }

    @Test("Validators come from ETag and Last-Modified; Vary compares the request's values, absent ones too")
    func validatorsAndVariants() {
        var headers = HTTPFields()
        headers[.eTag] = "\"v1\""
        headers[.lastModified] = "Sun, 06 Nov 1994 08:49:37 GMT"
        headers[.vary] = "Accept-Language, X-Tenant"
        var reply = Self.reply("hello", headers: headers)
        #expect(reply.validators[.ifNoneMatch] == "\"v1\"")
        #expect(reply.validators[.ifModifiedSince] == "Sun, 06 Nov 1994 08:49:37 GMT")
        var request = HTTPFields()
        request[.acceptLanguage] = "de"
        reply.variants = CachedReply.variants(of: headers, request: request)
        #expect(reply.variants == ["accept-language": "de", "x-tenant": ""])
        #expect(reply.matches(request))
        var other = request
        other[.acceptLanguage] = "fr"
        #expect(!reply.matches(other))
        var tenant = request
        tenant[HTTPField.Name("X-Tenant")!] = "acme"
        #expect(!reply.matches(tenant))
    }
}
