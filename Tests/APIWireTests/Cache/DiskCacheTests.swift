@testable import APIDiskCache
@testable import APIRuntime
import APITestSupport
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import InMemoryLogging
import Logging
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// The response cache on disk: what a restart keeps, what a damaged file does, who may read it,
/// and its bound.
@Suite("The response cache on disk", .serialized)
struct DiskCacheTests {
    /// A folder of its own for each test, removed afterwards.
    static func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apigen-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    /// A manager whose cache is on disk at `url`, whose only interceptor is `recorder`, and whose
    /// warnings go to `log`.
    static func withDiskManager(
        _ url: URL, maxBytes: Int = 1 << 20, recorder: CacheRecorder = CacheRecorder(), log: InMemoryLogHandler = InMemoryLogHandler(),
        _ body: (APIManager) async throws -> Void
    ) async throws {
        var configuration = APIManager.Configuration()
        configuration.httpTransport = testHTTPTransport
        configuration.interceptors = [recorder]
        configuration.cache = .disk(at: url, maxBytes: maxBytes, logger: Logger(label: "cache") { _ in log })
        // Opening the file may wait for another connection's lock: not on the cooperative pool.
        let manager = try await onThreadOfItsOwn { [configuration] in APIManager(configuration: configuration) }
        do {
            try await body(manager)
        } catch {
            await manager.shutdown(gracePeriod: .zero)
            throw error
        }
        await manager.shutdown(gracePeriod: .zero)
    }

    /// `replies.sqlite` in `folder`, holding the reply of one call to `server`.
    static func fileWithOneReply(in folder: URL, from server: LoopbackServer) async throws -> URL {
        let url = folder.appendingPathComponent("replies.sqlite")
        try await withDiskManager(url) { (manager: APIManager) async throws in
            _ = try await profile(server).using(manager).start()
        }
        return url
    }

    static func profile(_ server: LoopbackServer, id: Int = 7) -> BaseAPI<String> {
        ResponseCacheTests.user(server, id: id, cache: CacheSettings(ttl: 600))
    }

    @Test("A new manager reads back the replies of one shut down before it, a credential's among them")
    func survivesRestart() async throws {
        let server = try await LoopbackServer.start { request in
            ResponseCacheTests.reply("for " + (request.headers[.authorization] ?? "nobody"))
        }
        try await Self.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            let recorder = CacheRecorder()
            recorder.token.withLockedValue { $0 = "ann" }
            try await Self.withDiskManager(url, recorder: recorder) { (manager: APIManager) async throws in
                #expect(try await Self.profile(server).using(manager).start() == "for Bearer ann")
                #expect(try await Self.profile(server, id: 8).using(manager).start() == "for Bearer ann")
            }
            // The file keeps digests of the call and of its account, never the token.
            let rows = try DatabaseQueue(path: url.path).read { db in try Row.fetchAll(db, sql: "SELECT key, account FROM reply") }
            #expect(rows.count == 2)
            for row in rows {
                let key: String = row["key"], account: String = row["account"]
                #expect(account.count == 64 && account.allSatisfy(\.isHexDigit) && key == key.prefix(64) + "#" + account)
            }
            try await Self.withDiskManager(url, recorder: recorder) { (manager: APIManager) async throws in
                let reply = try await Self.profile(server).using(manager).startWithMetadata()
                #expect(reply.value == "for Bearer ann" && reply.source.isFromCache)
                #expect(reply.headerFields[.contentType] == "text/plain")
                #expect(server.requests.count == 2)
                #expect(manager.cache.count == 2 && manager.cache.bytes > 0)
                // The log-out of a credential stored before the restart finds its replies.
                #expect(manager.cache.removeAll(credential: "ann") == 2)
                #expect(manager.cache.count == 0 && manager.cache.bytes == 0)
            }
        }
    }

    @Test("Removal by tag and by call works on disk, and the bound holds: the least recently used go first")
    func removalAndBound() async throws {
        let body = String(repeating: "x", count: 2_000)
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply(body) }
        try await Self.withFolder { (folder: URL) async throws in
            try await Self.withDiskManager(folder.appendingPathComponent("replies.sqlite"), maxBytes: 12_000) { (manager: APIManager) async throws in
                for id in 1...10 { _ = try await Self.profile(server, id: id).using(manager).start() }
                #expect(manager.cache.bytes <= 12_000)
                #expect(manager.cache.count < 10 && manager.cache.count >= 4)
                _ = try await Self.profile(server, id: 10).using(manager).start()
                #expect(server.requests.count == 10)
                _ = try await Self.profile(server, id: 1).using(manager).start()
                #expect(server.requests.count == 11)

                #expect(try manager.cache.remove(Self.profile(server, id: 10)) == 1)
                let kept = manager.cache.count
                #expect(manager.cache.removeAll(tagged: "users") == kept)
                #expect(manager.cache.bytes == 0)
            }
        }
    }

    @Test("A damaged or truncated file is discarded with a warning, never a crash, and the cache works again", arguments: ["garbage", "truncated"])
    func damagedFile(damage: String) async throws {
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply("ann") }
        try await Self.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            try await Self.withDiskManager(url) { (manager: APIManager) async throws in
                for id in 1...50 { _ = try await Self.profile(server, id: id).using(manager).start() }
            }
            let contents = try Data(contentsOf: url)
            let damaged = damage == "garbage" ? Data(repeating: 0x5A, count: contents.count) : contents.prefix(contents.count / 2)
            try damaged.write(to: url)

            let log = InMemoryLogHandler()
            try await Self.withDiskManager(url, log: log) { (manager: APIManager) async throws in
                let reply = try await Self.profile(server).using(manager).startWithMetadata()
                #expect(reply.value == "ann" && !reply.source.isFromCache)
                #expect(manager.cache.count == 1)
            }
            #expect(log.entries.contains { $0.level == .warning && $0.message.description.contains("cannot be read") })
            try await Self.withDiskManager(url) { (manager: APIManager) async throws in
                #expect(try await Self.profile(server).using(manager).startWithMetadata().source.isFromCache)
            }
        }
    }

    @Test("No token, cookie, key or header value reaches the file: the call's credentials, query and Vary'd values are digests, Set-Cookie is not kept")
    func nothingInClear() async throws {
        let secrets = ["tok-A-secret", "QKEY-secret", "COOKIE-secret", "TENANT-secret"]
        let server = try await LoopbackServer.start { _ in
            ResponseCacheTests.reply("hello", [
                ("Cache-Control", "max-age=600"), ("Vary", "Authorization, X-Tenant"), ("Set-Cookie", "sid=COOKIE-secret; Path=/"),
            ])
        }
        try await Self.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            try await Self.withDiskManager(url) { (manager: APIManager) async throws in
                let definition = APIDefinition(
                    name: "GetUser", wire: .http(.get, path: "/users/{id}"), cache: CacheSettings(ttl: 600),
                    defaults: APIDefaults(baseURL: server.baseURL)
                )
                let api = BaseAPI(definition: definition, response: .text, request: RequestBuilder().path("id", 7).query("api_key", "QKEY-secret"))
                api.options.headers = [("Authorization", "Bearer tok-A-secret"), ("X-Tenant", "TENANT-secret")]
                #expect(try await api.using(manager).start() == "hello")
                // Over a transport that keeps cookies, the cookie the reply set makes the next call
                // another account's, stored apart.
                _ = try await api.using(manager).start()
                #expect(try await api.using(manager).startWithMetadata().source.isFromCache)
                #expect(manager.cache.count == (testHTTPTransport.keepsCookies ? 2 : 1))
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.contains("replies.sqlite"))
            for file in files {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
                for secret in secrets {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) holds \(secret)")
                }
            }
        }
    }

    @Test("A file of the first schema, whose keys held tokens in clear, keeps nothing of them once opened")
    func upgradeLeavesNoToken() async throws {
        try await Self.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let old = try DatabaseQueue(path: url.path)
            try await old.write { db in
                try db.execute(sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('replies');
                    CREATE TABLE reply (key TEXT PRIMARY KEY NOT NULL, scope TEXT, reply BLOB NOT NULL, body BLOB NOT NULL, cost INTEGER NOT NULL, used REAL NOT NULL);
                    CREATE TABLE reply_tag (tag TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (tag, key));
                    CREATE TABLE setting (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                    """)
                for index in 0..<200 {
                    try db.execute(
                        sql: "INSERT INTO reply VALUES (?, NULL, x'7b7d', x'00', 10, 0)",
                        arguments: ["GET /users/\(index) authorization:Bearer OLD-SECRET-TOKEN"]
                    )
                }
            }
            try old.close()
            try await Self.withDiskManager(url) { (manager: APIManager) async throws in
                #expect(manager.cache.count == 0)
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
                #expect(bytes.range(of: Data("OLD-SECRET-TOKEN".utf8)) == nil, "\(file) still holds the old token")
            }
        }
    }

    @Test("No integrity scan at start: a damaged page no call reads costs nothing, where a scan would have discarded the file")
    func noScanAtStart() async throws {
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply("ann") }
        try await Self.withFolder { (folder: URL) async throws in
            let url = try await Self.fileWithOneReply(in: folder, from: server)
            // A table of another's in the same file, one of whose pages is then damaged.
            let other = try DatabaseQueue(path: url.path)
            let (page, size) = try await other.write { db -> (Int, Int) in
                try db.execute(sql: "CREATE TABLE other (value BLOB)")
                for _ in 0..<8 { try db.execute(sql: "INSERT INTO other VALUES (zeroblob(2000))") }
                let root = try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'other'") ?? 0
                return (root, try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
            }
            try await other.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try other.close()
            let handle = try FileHandle(forWritingTo: url)
            try handle.seek(toOffset: UInt64((page - 1) * size))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: size))
            try handle.close()

            let log = InMemoryLogHandler()
            try await Self.withDiskManager(url, log: log) { (manager: APIManager) async throws in
                #expect(try await Self.profile(server).using(manager).startWithMetadata().source.isFromCache)
            }
            #expect(!log.entries.contains { $0.message.description.contains("discarded") })
        }
    }

    @Test("A file another connection is writing is waited for, and never discarded: held briefly, then past the wait")
    func busyFileIsKept() async throws {
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply("ann") }
        try await Self.withFolder { (folder: URL) async throws in
            let url = try await Self.fileWithOneReply(in: folder, from: server)
            let inode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let holder = try DatabaseQueue(path: url.path, configuration: configuration)

            // Held for a moment: the new manager waits for it, and finds the stored reply.
            try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            // Released from a thread of its own, which a busy cooperative pool cannot hold up.
            let released = OnceResult<Void>()
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 0.3)
                released.resolve(Result { try holder.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") } })
            }
            try await Self.withDiskManager(url) { (manager: APIManager) async throws in
                #expect(try await Self.profile(server).using(manager).startWithMetadata().source.isFromCache)
            }
            try await released.value

            // Held past the wait: the manager goes on without the file, which it leaves as it is.
            try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            let log = InMemoryLogHandler()
            try await Self.withDiskManager(url, log: log) { (manager: APIManager) async throws in
                #expect(try await Self.profile(server).using(manager).start() == "ann")
            }
            try await holder.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
            #expect(!log.entries.contains { $0.message.description.contains("discarded") })
            #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int == inode)
            try await Self.withDiskManager(url) { (manager: APIManager) async throws in
                #expect(try await Self.profile(server).using(manager).startWithMetadata().source.isFromCache)
            }
        }
    }

    @Test("Two managers on one file keep one byte bound between them, and neither total goes below zero")
    func oneBoundPerFile() async throws {
        let body = String(repeating: "x", count: 2_000)
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply(body) }
        try await Self.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            try await Self.withDiskManager(url, maxBytes: 12_000) { (first: APIManager) async throws in
                try await Self.withDiskManager(url, maxBytes: 12_000) { (second: APIManager) async throws in
                    for id in 1...10 {
                        _ = try await Self.profile(server, id: id).using(first).start()
                        _ = try await Self.profile(server, id: 100 + id).using(second).start()
                    }
                    let stored = try await DatabaseQueue(path: url.path).read { db in try Int.fetchOne(db, sql: "SELECT SUM(cost) FROM reply") ?? 0 }
                    #expect(stored <= 12_000)
                    #expect(first.cache.bytes == stored && second.cache.bytes == stored)
                    first.cache.removeAll()
                    #expect(first.cache.bytes == 0 && second.cache.bytes == 0 && second.cache.count == 0)
                    _ = try await Self.profile(server, id: 1).using(second).start()
                    #expect(first.cache.bytes > 0 && first.cache.bytes == second.cache.bytes)
                }
            }
        }
    }

    @Test("The digest key lives beside the database, the user's alone; replies digested under a lost key are removed")
    func digestKeyFile() async throws {
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply("ann") }
        try await Self.withFolder { (folder: URL) async throws in
            let url = try await Self.fileWithOneReply(in: folder, from: server)
            let keyFile = url.appendingPathExtension("key")
            #expect(try Data(contentsOf: keyFile).count == 32)
            #expect(try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int == 0o600)
            try FileManager.default.removeItem(at: keyFile)
            let log = InMemoryLogHandler()
            try await Self.withDiskManager(url, log: log) { (manager: APIManager) async throws in
                #expect(manager.cache.count == 0)
                #expect(try await !Self.profile(server).using(manager).startWithMetadata().source.isFromCache)
            }
            #expect(log.entries.contains { $0.level == .warning && $0.message.description.contains("another key") })
        }
    }

    @Test("Two stores that make a new file at the same moment share it: what one stores, the other reads")
    func twoStoresOpeningAtOnce() async throws {
        let reply = CachedReply(
            status: .http(.ok), body: Data("x".utf8), headers: [:],
            freshness: HTTPFreshness(lifetime: 60, staleWhileRevalidate: nil, staleIfError: nil, server: CacheControl(), receivedAt: Date()),
            variants: [:], tags: [], account: nil, call: "call"
        )
        for round in 0..<20 {
            try await Self.withFolder { (folder: URL) async throws in
                let url = folder.appendingPathComponent("replies.sqlite")
                let stores = NIOLockedValueBox<[DiskResponseStore]>([])
                try await onThreadOfItsOwn {
                    DispatchQueue.concurrentPerform(iterations: 2) { _ in
                        let store = DiskResponseStore(url: url, maxBytes: 1 << 20, logger: Logger(label: "race"))
                        stores.withLockedValue { $0.append(store) }
                    }
                }
                let (first, second) = stores.withLockedValue { ($0[0], $0[1]) }
                let key = CacheKey(identity: first.digest("call"), account: nil)
                #expect(first.store(reply, for: key))
                #expect(second.reply(for: key) != nil, "round \(round): the stores opened different files")
            }
        }
    }

    @Test("The file and its folder are the user's alone")
    func permissions() async throws {
        try await Self.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("cache/replies.sqlite")
            try await Self.withDiskManager(url) { _ in }
            let file = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            let parent = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)[.posixPermissions] as? Int
            #expect(file == 0o600)
            #expect(parent == 0o700)
        }
    }

    @Test("A folder that cannot be written: a warning, and calls go on without a cache")
    func unwritable() async throws {
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply("ann") }
        let log = InMemoryLogHandler()
        try await Self.withDiskManager(URL(fileURLWithPath: "/proc/apigen/replies.sqlite"), log: log) { (manager: APIManager) async throws in
            #expect(try await Self.profile(server).using(manager).start() == "ann")
            #expect(try await Self.profile(server).using(manager).start() == "ann")
            #expect(server.requests.count == 2)
        }
        #expect(log.entries.contains { $0.level == .warning && $0.message.description.contains("cannot be made") })
    }
}
