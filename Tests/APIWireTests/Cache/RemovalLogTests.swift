@testable import APIDiskCache
@testable import APIRuntime
import APITestSupport
import Foundation
import Logging
import Testing

/// What a store remembers of its removals, so that a reply older than one is not stored: the
/// same rules in memory and on disk, where every store on the file shares them.
@Suite("Removals a call in flight is kept from undoing", .serialized)
struct RemovalLogTests {
    static func reply(tags: Set<String> = [], account: String? = nil, call: String = "call") -> CachedReply {
        CachedReply(
            status: .http(.ok), body: Data("body".utf8), headers: [:],
            freshness: HTTPFreshness(lifetime: 60, staleWhileRevalidate: nil, staleIfError: nil, server: CacheControl(), receivedAt: Date()),
            variants: [:], tags: tags, account: account, call: call
        )
    }

    /// Runs `body` with a memory store, or with two disk stores on one file.
    static func withStores(_ kind: String, _ body: (any ResponseStore, any ResponseStore) throws -> Void) async throws {
        guard kind == "disk" else {
            let store = MemoryResponseStore(maxBytes: 1 << 20)
            return try body(store, store)
        }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            let (first, second) = try await onThreadOfItsOwn {
                (DiskResponseStore(url: url, maxBytes: 1 << 20, logger: Logger(label: "cache")), DiskResponseStore(url: url, maxBytes: 1 << 20, logger: Logger(label: "cache")))
            }
            try body(first, second)
        }
    }

    @Test("A reply is not stored after a removal of its call, a tag, its account or a credential made since its mark; others are", arguments: ["memory", "disk"])
    func removedSinceMark(kind: String) async throws {
        try await Self.withStores(kind) { app, widget in
            let key = CacheKey(identity: "i", account: "ann")
            var mark = widget.removalMark
            app.removeAll(tagged: "users")
            #expect(!widget.store(Self.reply(tags: ["users"], account: "ann"), for: key, linking: [], unlessRemovedSince: mark))
            #expect(widget.store(Self.reply(tags: ["orders"], account: "ann"), for: key, linking: [], unlessRemovedSince: mark))

            mark = widget.removalMark
            app.removeAll(credential: "ann-token")
            #expect(!widget.store(Self.reply(account: "ann"), for: key, linking: ["ann-token"], unlessRemovedSince: mark), "a credential not yet linked")
            #expect(!widget.store(Self.reply(account: "ann-token"), for: CacheKey(identity: "i", account: "ann-token"), linking: [], unlessRemovedSince: mark), "the credential's own account")
            #expect(widget.store(Self.reply(account: "bob"), for: CacheKey(identity: "i", account: "bob"), linking: ["bob-token"], unlessRemovedSince: mark))

            mark = widget.removalMark
            app.removeAll(call: "call")
            #expect(!widget.store(Self.reply(account: "bob"), for: key, linking: [], unlessRemovedSince: mark))
            #expect(widget.store(Self.reply(account: "bob", call: "other"), for: key, linking: [], unlessRemovedSince: mark))

            mark = widget.removalMark
            app.removeAll()
            #expect(!widget.store(Self.reply(call: "anything"), for: CacheKey(identity: "j", account: nil), linking: [], unlessRemovedSince: mark))
            #expect(widget.store(Self.reply(call: "anything"), for: CacheKey(identity: "j", account: nil), linking: [], unlessRemovedSince: widget.removalMark))
        }
    }

    @Test("A log-out finds the account by a credential linked when the reply was stored", arguments: ["memory", "disk"])
    func linkedWithTheReply(kind: String) async throws {
        try await Self.withStores(kind) { app, widget in
            #expect(widget.store(Self.reply(account: "ann"), for: CacheKey(identity: "i", account: "ann"), linking: ["t1", "t2"], unlessRemovedSince: widget.removalMark))
            #expect(app.removeAll(credential: "t2") == 1)
            #expect(app.count == 0)
        }
    }

    @Test("Past the names it keeps, a mark older than what it forgot counts as removed; a later one does not", arguments: ["memory", "disk"])
    func forgetsTheOldest(kind: String) async throws {
        try await Self.withStores(kind) { app, widget in
            let old = widget.removalMark
            for tag in 0...RemovalLog.limit { app.removeAll(tagged: "tag-\(tag)") }
            let key = CacheKey(identity: "i", account: nil)
            #expect(!widget.store(Self.reply(tags: ["untouched"]), for: key, linking: [], unlessRemovedSince: old))
            let recent = widget.removalMark
            app.removeAll(tagged: "tag-new")
            #expect(widget.store(Self.reply(tags: ["untouched"]), for: key, linking: [], unlessRemovedSince: recent))
            #expect(!widget.store(Self.reply(tags: ["tag-new"]), for: key, linking: [], unlessRemovedSince: recent))
        }
    }

    @Test("A mark read from a file since made anew counts as removed")
    func fileMadeAnew() async throws {
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            let old = try await onThreadOfItsOwn { DiskResponseStore(url: url, maxBytes: 1 << 20, logger: Logger(label: "cache")) }
            for tag in ["a", "b", "c"] { old.removeAll(tagged: tag) }
            let mark = old.removalMark
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            let new = try await onThreadOfItsOwn { DiskResponseStore(url: url, maxBytes: 1 << 20, logger: Logger(label: "cache")) }
            new.removeAll(credential: "ann")
            #expect(new.removalMark < mark)
            #expect(!new.store(Self.reply(account: "ann"), for: CacheKey(identity: "i", account: "ann"), linking: [], unlessRemovedSince: mark))
            var log = RemovalLog()
            log.note(["tag:a"])
            #expect(log.removed(since: 7, anyOf: ["tag:b"]), "in memory too")
        }
    }

    @Test("Stores opening a file whose key file is damaged, at once, agree on its new key")
    func damagedKeyReplacedOnce() async throws {
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("replies.sqlite.key")
            try Data("cut short".utf8).write(to: file)
            let keys = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await onThreadOfItsOwn { try DigestKey.fileKey(at: file).withUnsafeBytes { Data($0) } } }
                }
                return try await group.reduce(into: Set<Data>()) { $0.insert($1) }
            }
            #expect(keys.count == 1)
            #expect(try Data(contentsOf: file).count == 32)
        }
    }

    @Test("Past 4,096 account links, those of accounts with no reply left go, on disk as in memory", arguments: ["memory", "disk"])
    func linksBounded(kind: String) async throws {
        try await Self.withStores(kind) { store, _ in
            #expect(store.store(Self.reply(account: "kept"), for: CacheKey(identity: "i", account: "kept"), linking: ["kept-token"], unlessRemovedSince: store.removalMark))
            for index in 0..<4_200 { store.link(["token-\(index)"], to: "gone-\(index)") }
            #expect(store.account(of: "kept-token") == "kept", "a live account's link stays")
            #expect(store.account(of: "token-0") == "token-0", "an account with no reply lost its links")
        }
    }
}
