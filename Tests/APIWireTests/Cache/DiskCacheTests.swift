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
@Suite("The response cache on disk")
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
        try await withManager(configuration) { manager in try await body(manager) }
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
            // The file keeps a digest of the credential, never the token.
            let rows = try DatabaseQueue(path: url.path).read { db in try Row.fetchAll(db, sql: "SELECT key, scope FROM reply") }
            #expect(rows.count == 2)
            for row in rows {
                let key: String = row["key"], scope: String = row["scope"]
                #expect(scope.count == 64 && scope.allSatisfy(\.isHexDigit) && key.hasSuffix(scope))
                #expect(!key.contains("ann"))
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
