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
import NIOCore
import Testing
import WireTestSupport

/// The disk store's key file and what its file holds of a reply's secrets.
@Suite("The disk store's key and its secrets at rest", .serialized)
struct DiskStoreSecretsTests {
    @Test("A damaged or dangling key file: the disk cache recovers, and a log-out still removes what the file holds", arguments: ["short", "dangling"])
    func damagedKeyFile(damage: String) async throws {
        let server = try await LoopbackServer.start { request in
            ResponseCacheTests.reply("for " + (request.headers[.authorization] ?? "nobody"))
        }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            let recorder = CacheRecorder()
            recorder.token.withLockedValue { $0 = "ann" }
            try await DiskCacheTests.withDiskManager(url, recorder: recorder) { (manager: APIManager) async throws in
                _ = try await DiskCacheTests.profile(server).using(manager).start()
            }
            let keyFile = url.appendingPathExtension("key")
            try FileManager.default.removeItem(at: keyFile)
            if damage == "short" {
                try Data("oops".utf8).write(to: keyFile)
            } else {
                try FileManager.default.createSymbolicLink(atPath: keyFile.path, withDestinationPath: folder.appendingPathComponent("gone").path)
            }
            let log = InMemoryLogHandler()
            try await DiskCacheTests.withDiskManager(url, recorder: recorder, log: log) { (manager: APIManager) async throws in
                _ = try await DiskCacheTests.profile(server, id: 8).using(manager).start()
                let again = try await DiskCacheTests.profile(server, id: 8).using(manager).startWithMetadata()
                #expect(again.source.isFromCache, "the disk cache stays off")
                manager.cache.removeAll(credential: "ann")
            }
            let rows = try await DatabaseQueue(path: url.path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reply") ?? 0 }
            #expect(rows == 0, "ann's replies stay in the file after her log-out")
        }
    }

    @Test("A key file left readable by others (0644) is made the user's alone again, as the database is")
    func keyFileMode() async throws {
        let server = try await LoopbackServer.start { _ in ResponseCacheTests.reply("ann") }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = try await DiskCacheTests.fileWithOneReply(in: folder, from: server)
            let keyFile = url.appendingPathExtension("key")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
            try await DiskCacheTests.withDiskManager(url) { (manager: APIManager) async throws in
                #expect(try await DiskCacheTests.profile(server).using(manager).startWithMetadata().source.isFromCache)
            }
            #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
            #expect(try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int == 0o600)
        }
    }

    @Test("A token a reply hands back in a secret-named header (a rotated token) does not reach the disk file")
    func replyTokenHeaderAtRest() async throws {
        let server = try await LoopbackServer.start { _ in
            ResponseCacheTests.reply("hello", [("Cache-Control", "max-age=600"), ("X-Auth-Token", "ROTATED-secret"), ("X-Refresh-Token", "REFRESH-secret")])
        }
        try await DiskCacheTests.withFolder { (folder: URL) async throws in
            let url = folder.appendingPathComponent("replies.sqlite")
            try await DiskCacheTests.withDiskManager(url) { (manager: APIManager) async throws in
                _ = try await DiskCacheTests.profile(server).using(manager).start()
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
                for secret in ["ROTATED-secret", "REFRESH-secret"] {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) holds \(secret)")
                }
            }
            // Sealed at rest, whole on a hit after a restart.
            try await DiskCacheTests.withDiskManager(url) { (manager: APIManager) async throws in
                let hit = try await DiskCacheTests.profile(server).using(manager).startWithMetadata()
                #expect(hit.source.isFromCache)
                #expect(hit.headerFields[HTTPField.Name("X-Auth-Token")!] == "ROTATED-secret")
                #expect(hit.headerFields[HTTPField.Name("X-Refresh-Token")!] == "REFRESH-secret")
            }
        }
    }
}
