@testable import APIRuntime
import Foundation
import HTTPTypes
import Testing

@Suite("The cache's memory store")
struct MemoryResponseStoreTests {
    static func reply(_ body: String, tags: Set<String> = [], account: String? = nil, call: String = "", headers: HTTPFields = [:]) -> CachedReply {
        CachedReply(
            status: .http(.ok), body: Data(body.utf8), headers: headers,
            freshness: HTTPFreshness(lifetime: 60, staleWhileRevalidate: nil, staleIfError: nil, server: CacheControl(), receivedAt: Date()),
            variants: [:], tags: tags, account: account, call: call
        )
    }

    static func key(_ identity: String, _ account: String? = nil) -> CacheKey {
        CacheKey(identity: identity, account: account)
    }

    @Test("Replies are removed by key, by call, by tag, by account, or all at once")
    func removal() {
        let store = MemoryResponseStore(maxBytes: 1 << 20)
        store.store(Self.reply("ann", tags: ["users"], account: "alice", call: "user 1"), for: Self.key("GET /users/1", "alice"))
        store.store(Self.reply("ann", tags: ["users"], account: "bob", call: "user 1"), for: Self.key("GET /users/1", "bob"))
        store.store(Self.reply("3", tags: ["count"], account: "alice"), for: Self.key("GET /count", "alice"))
        store.store(Self.reply("public"), for: Self.key("GET /motd"))
        #expect(store.count == 4)
        #expect(store.removeAll(call: "user 1") == 2)
        #expect(store.reply(for: Self.key("GET /users/1", "bob")) == nil)
        store.store(Self.reply("ann", tags: ["users"], account: "bob"), for: Self.key("GET /users/1", "bob"))
        #expect(store.removeAll(tagged: "users") == 1)
        #expect(store.removeAll(account: "alice") == 1)
        #expect(store.reply(for: Self.key("GET /motd"))?.body == Data("public".utf8))
        store.remove(Self.key("GET /motd"))
        #expect(store.count == 0 && store.bytes == 0)
        store.store(Self.reply("x"), for: Self.key("k"))
        store.removeAll()
        #expect(store.count == 0 && store.bytes == 0 && store.maxBytes == 1 << 20)
    }

    @Test("A credential linked to an account is found as that account until the account is removed")
    func accounts() {
        let store = MemoryResponseStore(maxBytes: 1 << 20)
        #expect(store.account(of: "t1") == "t1")
        store.link(["t2", "alice-token"], to: "t1")
        #expect(store.account(of: "t2") == "t1" && store.account(of: "alice-token") == "t1")
        store.store(Self.reply("a", account: "t1"), for: Self.key("GET /a", "t1"))
        store.store(Self.reply("b", account: "u1"), for: Self.key("GET /a", "u1"))
        #expect(store.removeAll(account: store.account(of: "t2")) == 1)
        #expect(store.account(of: "t2") == "t2" && store.count == 1)
        // Digests are keyed: the same text gives the same digest, another text another one.
        #expect(store.digest("a") == store.digest("a") && store.digest("a") != store.digest("b"))
        #expect(store.digest("a") != MemoryResponseStore(maxBytes: 1).digest("a"))
    }

    @Test("20,000 distinct replies, stored from eight tasks at once, keep the bytes within the bound")
    func bounded() async {
        let store = MemoryResponseStore(maxBytes: 4 << 20)
        await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var most = 0
                    for index in stride(from: worker, to: 20_000, by: 8) {
                        store.store(Self.reply(String(repeating: "x", count: index % 2_000)), for: Self.key("GET /items/\(index)"))
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
        let digest = { (text: String) in "digest of " + text }
        reply.variants = CachedReply.variants(of: headers, request: request, digest: digest)
        #expect(reply.variants == ["accept-language": "digest of de", "x-tenant": "digest of "])
        #expect(reply.matches(request, digest: digest))
        var other = request
        other[.acceptLanguage] = "fr"
        #expect(!reply.matches(other, digest: digest))
        var tenant = request
        tenant[HTTPField.Name("X-Tenant")!] = "acme"
        #expect(!reply.matches(tenant, digest: digest))
    }
}
