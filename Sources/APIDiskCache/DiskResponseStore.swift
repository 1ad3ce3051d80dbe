import APIRuntime
import Crypto
import Foundation
import GRDB
import Logging
import NIOConcurrencyHelpers

/// The cache's replies in an SQLite database (through GRDB), which a restart of the app keeps:
/// a row per reply, its body as a blob beside what decides its use, and its tags in a table of
/// their own. Past `maxBytes` the least recently used rows go first.
///
/// The file is the app user's alone (mode 0600 in a folder of mode 0700; on iOS, tvOS, watchOS
/// and visionOS also `completeUntilFirstUserAuthentication` protection). A file that is not a
/// database, or is damaged, is discarded with a warning and made again; a store that cannot be
/// written answers as an empty one. Credentials are kept as HMAC-SHA256 digests, keyed by a
/// random key the database keeps, so that a log-out after a restart finds its replies.
final class DiskResponseStore: ResponseStore {
    let maxBytes: Int
    private let url: URL
    private let logger: Logger
    /// The open database; replaced when it is found damaged.
    private let database: NIOLockedValueBox<DatabaseQueue?>
    /// The HMAC key of credential digests, read from the database when it opens.
    private let digestKey: NIOLockedValueBox<SymmetricKey>
    /// Bytes the rows hold, kept as rows are written (the sum would be a scan of every row).
    private let total = NIOLockedValueBox(0)
    /// How long a reply read again keeps its old place in the recency order: reads within it are
    /// not written back, so that a hit is one read.
    private static let recencyGranularity: TimeInterval = 60

    init(url: URL, maxBytes: Int, logger: Logger) {
        self.url = url
        self.maxBytes = max(0, maxBytes)
        self.logger = logger
        self.database = NIOLockedValueBox(nil)
        self.digestKey = NIOLockedValueBox(SymmetricKey(size: .bits256))
        open()
    }

    // MARK: Opening

    /// Opens the database, or discards a damaged one and makes it again; on failure the store
    /// holds nothing.
    private func open() {
        do {
            try openDatabase()
        } catch {
            logger.warning("apigen's response cache at \(url.path) cannot be read (\(error)); it is discarded and made again")
            discardFiles()
            do {
                try openDatabase()
            } catch {
                logger.warning("apigen's response cache at \(url.path) cannot be made (\(error)); replies are not kept on disk")
                database.withLockedValue { $0 = nil }
            }
        }
    }

    private func openDatabase() throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var configuration = Configuration()
        configuration.label = "apigen.responses"
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try Self.migrator.migrate(queue)
        let (key, bytes) = try queue.write { db in
            // A damaged file can open and fail on its first read: read everything a row holds.
            try db.execute(sql: "PRAGMA quick_check")
            let stored = try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'digestKey'")
            let key = stored ?? SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            if stored == nil { try db.execute(sql: "INSERT INTO setting (name, value) VALUES ('digestKey', ?)", arguments: [key]) }
            return (key, try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(cost), 0) FROM reply") ?? 0)
        }
        try Self.protect(url)
        digestKey.withLockedValue { $0 = SymmetricKey(data: key) }
        total.withLockedValue { $0 = bytes }
        database.withLockedValue { $0 = queue }
    }

    private static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("replies") { db in
            try db.execute(sql: """
                CREATE TABLE reply (
                    key TEXT PRIMARY KEY NOT NULL,
                    scope TEXT,
                    reply BLOB NOT NULL,
                    body BLOB NOT NULL,
                    cost INTEGER NOT NULL,
                    used REAL NOT NULL
                );
                CREATE INDEX reply_used ON reply(used);
                CREATE INDEX reply_scope ON reply(scope);
                CREATE TABLE reply_tag (
                    tag TEXT NOT NULL,
                    key TEXT NOT NULL REFERENCES reply(key) ON DELETE CASCADE,
                    PRIMARY KEY (tag, key)
                );
                CREATE INDEX reply_tag_key ON reply_tag(key);
                CREATE TABLE setting (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                """)
        }
        return migrator
    }()

    /// The file is readable by the app's user alone.
    private static func protect(_ url: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path)
        #endif
    }

    private func discardFiles() {
        database.withLockedValue { $0 = nil }
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// Runs `work` on the database; a failure is logged, and a damaged database is discarded
    /// and made again, so that the call goes on as if nothing were stored.
    private func withDatabase<T>(_ what: String, otherwise: T, _ work: (DatabaseQueue) throws -> T) -> T {
        guard let queue = database.withLockedValue({ $0 }) else { return otherwise }
        do {
            return try work(queue)
        } catch {
            logger.warning("apigen's response cache could not \(what) (\(error))")
            if let error = error as? DatabaseError, [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
                discardFiles()
                open()
            }
            return otherwise
        }
    }

    // MARK: ResponseStore

    var bytes: Int { total.withLockedValue { $0 } }

    var count: Int {
        withDatabase("count its replies", otherwise: 0) { queue in
            try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reply") ?? 0 }
        }
    }

    func reply(for key: String) -> CachedReply? {
        let row: (reply: Data, body: Data, used: Double)? = withDatabase("read a reply", otherwise: nil) { queue in
            try queue.read { db in
                try Row.fetchOne(db, sql: "SELECT reply, body, used FROM reply WHERE key = ?", arguments: [key]).map { ($0["reply"], $0["body"], $0["used"]) }
            }
        }
        guard let row else { return nil }
        let now = Date().timeIntervalSince1970
        if now - row.used > Self.recencyGranularity {
            withDatabase("mark a reply used", otherwise: ()) { queue in
                try queue.write { db in try db.execute(sql: "UPDATE reply SET used = ? WHERE key = ?", arguments: [now, key]) }
            }
        }
        do {
            var reply = try JSONDecoder().decode(CachedReply.self, from: row.reply)
            reply.body = row.body
            return reply
        } catch {
            logger.warning("apigen's response cache holds a reply it cannot read (\(error)); it is removed")
            remove(key)
            return nil
        }
    }

    @discardableResult
    func store(_ reply: CachedReply, for key: String) -> Bool {
        let cost = reply.cost(key: key)
        guard cost <= maxBytes else {
            remove(key)
            return false
        }
        var described = reply
        described.body = Data()
        guard let encoded = try? JSONEncoder().encode(described) else { return false }
        return withDatabase("store a reply", otherwise: false) { queue in
            try queue.write { db in
                let old = try Int.fetchOne(db, sql: "SELECT cost FROM reply WHERE key = ?", arguments: [key]) ?? 0
                try db.execute(sql: "DELETE FROM reply WHERE key = ?", arguments: [key])
                try db.execute(
                    sql: "INSERT INTO reply (key, scope, reply, body, cost, used) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [key, reply.scope, encoded, reply.body, cost, Date().timeIntervalSince1970]
                )
                for tag in reply.tags {
                    try db.execute(sql: "INSERT INTO reply_tag (tag, key) VALUES (?, ?)", arguments: [tag, key])
                }
                var bytes = total.withLockedValue { $0 } - old + cost
                // Past the bound, the least recently used go, a batch at a time.
                while bytes > maxBytes {
                    let victims = try Row.fetchAll(db, sql: "SELECT key, cost FROM reply WHERE key != ? ORDER BY used LIMIT 64", arguments: [key])
                    if victims.isEmpty { break }
                    for victim in victims {
                        try db.execute(sql: "DELETE FROM reply WHERE key = ?", arguments: [victim["key"] as String])
                        bytes -= victim["cost"] as Int
                        if bytes <= maxBytes { break }
                    }
                }
                total.withLockedValue { $0 = bytes }
                return true
            }
        }
    }

    func remove(_ key: String) {
        delete("remove a reply", where: "key = ?", [key])
    }

    @discardableResult
    func removeAll(keyPrefix prefix: String) -> Int {
        // Compared as text: a LIKE pattern would need the identity's % and _ escaped.
        delete("remove a call's replies", where: "substr(key, 1, ?) = ?", [prefix.utf8.count, prefix])
    }

    @discardableResult
    func removeAll(tagged tag: String) -> Int {
        delete("remove tagged replies", where: "key IN (SELECT key FROM reply_tag WHERE tag = ?)", [tag])
    }

    @discardableResult
    func removeAll(scope: String) -> Int {
        delete("remove a credential's replies", where: "scope = ?", [scope])
    }

    func removeAll() {
        delete("remove every reply", where: "1", [])
    }

    /// Deletes the rows `condition` picks, keeping the total; returns how many.
    @discardableResult
    private func delete(_ what: String, where condition: String, _ arguments: StatementArguments) -> Int {
        withDatabase(what, otherwise: 0) { queue in
            try queue.write { db in
                let removed = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(cost), 0) FROM reply WHERE \(condition)", arguments: arguments) ?? 0
                try db.execute(sql: "DELETE FROM reply WHERE \(condition)", arguments: arguments)
                total.withLockedValue { $0 -= removed }
                return db.changesCount
            }
        }
    }

    /// HMAC-SHA256 of the credential under the database's key, in hexadecimal.
    func scope(of credential: String) -> String {
        let key = digestKey.withLockedValue { $0 }
        return HMAC<SHA256>.authenticationCode(for: Data(credential.utf8), using: key).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
