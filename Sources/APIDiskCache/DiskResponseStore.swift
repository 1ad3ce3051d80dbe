import APIRuntime
import Crypto
import Foundation
import GRDB
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The cache's replies in an SQLite database (through GRDB), which a restart of the app keeps:
/// a row per reply, its body as a blob beside what decides its use, its tags in a table of their
/// own, and the byte total of every reply in a row of its own, so that any number of stores on one
/// file (two managers, two processes) keep one bound. Past `maxBytes` the least recently used rows
/// go first.
///
/// The file is the app user's alone (mode 0600 in a folder of mode 0700; on iOS, tvOS, watchOS
/// and visionOS also `completeUntilFirstUserAuthentication` protection), and holds no identity,
/// credential or header value: the cache hands it HMAC-SHA256 digests, under a key kept outside
/// the database (`DigestKey`). The database is in WAL mode and waits for a writer elsewhere rather
/// than failing at once. It is discarded and made again only when SQLite reports it damaged or
/// not a database; a store that cannot open it (another process holding it past the wait, a
/// folder that cannot be written) answers as an empty one and tries again later.
final class DiskResponseStore: ResponseStore {
    let maxBytes: Int
    private let url: URL
    private let logger: Logger
    /// The open database, and when opening it last failed.
    private let state = NIOLockedValueBox(State())
    /// The key of digests: the one kept beside the database once it is loaded (`DigestKey`), and
    /// until then a random one, so that digests made while the file cannot be opened tell texts
    /// apart as ever and match nothing stored.
    private let digestKey = NIOLockedValueBox((key: SymmetricKey(size: .bits256), isLoaded: false))
    /// How long a reply read again keeps its old place in the recency order: reads within it are
    /// not written back, so that a hit is one read.
    private static let recencyGranularity: TimeInterval = 60
    /// How long opening the file waits for another connection's write before it fails as busy.
    private static let busyTimeout: TimeInterval = 1
    /// How long a call's statement waits for another connection's write: a call makes it on its
    /// own task, and a reply not stored for it is only a miss later (reads never wait: WAL).
    private static let callBusyTimeoutMilliseconds = 100
    /// How long after a failed opening the store tries again.
    private static let reopenDelay: TimeInterval = 5

    private struct State {
        var database: DatabaseQueue?
        var failedAt: Date?
        /// The file-system number of the file the database was opened from.
        var file: Int?
        /// Whether a thread of its own is opening the database again.
        var isReopening = false
        /// Removals asked for while the database could not be opened, made once it is.
        var pendingRemovals: [Removal] = []
    }

    /// A removal, as a log-out, an invalidation or a test asks for it.
    private enum Removal {
        case call(String)
        case tagged(String)
        case account(String)
        case credential(String)
        case everything
    }

    init(url: URL, maxBytes: Int, logger: Logger) {
        self.url = url
        self.maxBytes = max(0, maxBytes)
        self.logger = logger
        open()
    }

    // MARK: Opening

    /// Opens the database, or discards one SQLite reports damaged and makes it again; on any other
    /// failure the store holds nothing until it tries again.
    @discardableResult
    private func open() -> DatabaseQueue? {
        do {
            return try openDatabaseWaitingForOthers()
        } catch where Self.isDamage(error) {
            discard(nil, because: error)
            do {
                return try openDatabase()
            } catch {
                return failedToOpen(error)
            }
        } catch {
            return failedToOpen(error)
        }
    }

    /// `openDatabase`, tried again for up to `busyTimeout` in all while another connection makes
    /// the file a WAL database or its tables: two connections that both do so at once deadlock,
    /// and SQLite fails one of them as busy at once, without waiting.
    private func openDatabaseWaitingForOthers() throws -> DatabaseQueue {
        let start = Date()
        var attempt = 0
        while true {
            do {
                return try openDatabase()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                attempt += 1
                let pause = 0.01 * Double(attempt)
                guard Date().timeIntervalSince(start) + pause < Self.busyTimeout else { throw error }
                Thread.sleep(forTimeInterval: pause)
            }
        }
    }

    private func failedToOpen(_ error: any Error) -> DatabaseQueue? {
        logger.warning("apigen's response cache at \(url.path) cannot be made (\(error)); replies are not kept on disk for now")
        state.withLockedValue { state in
            state.database = nil
            state.failedAt = Date()
            state.file = nil
        }
        return nil
    }

    private func openDatabase() throws -> DatabaseQueue {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Loaded outside the lock, which every digest takes: loading reads a file or the Keychain.
        let key: SymmetricKey
        if let loaded = digestKey.withLockedValue({ $0.isLoaded ? $0.key : nil }) {
            key = loaded
        } else {
            key = try DigestKey.load(for: url)
            digestKey.withLockedValue { $0 = (key, true) }
        }
        // Made before SQLite opens it, so that the WAL files SQLite makes beside it take its mode;
        // made in place (never written elsewhere and moved there), so that a store that made it
        // a moment earlier keeps its file.
        Self.makeFileIfMissing(at: url)
        var configuration = Configuration()
        configuration.label = "apigen.responses"
        configuration.foreignKeysEnabled = true
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            // What is deleted is overwritten, not left readable in free pages: a log-out's replies too.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // A commit is not flushed to the disk, only a checkpoint is: the store's calls run on
            // the call's task, where waiting for the disk would hold a thread of the cooperative
            // pool. In WAL mode the file stays whole through a crash or a power cut, which may
            // lose the replies stored last: a cache's misses.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try Self.protect(url)
        if try Self.makeSchema(in: queue) {
            // The schema before kept plain-text keys: nothing of the pages it used is left.
            try queue.vacuum()
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA busy_timeout = \(Self.callBusyTimeoutMilliseconds)") }
        let file = try Self.fileNumber(of: url)
        try queue.write { db in
            // Replies digested under another key (the key file lost or replaced) can never be found
            // again, nor removed by a log-out: they go.
            let check = Data(HMAC<SHA256>.authenticationCode(for: Data("apigen.response-cache".utf8), using: key))
            let stored = try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'keyCheck'")
            guard stored != check else { return }
            if stored != nil {
                logger.warning("apigen's response cache at \(url.path) was written under another key; its replies are removed")
            }
            try db.execute(sql: "DELETE FROM reply; DELETE FROM account_link; UPDATE usage SET bytes = 0")
            try db.execute(sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('keyCheck', ?)", arguments: [check])
        }
        // What was asked while the file could not be opened, made before any call reads it.
        let pending = state.withLockedValue { $0.pendingRemovals }
        if !pending.isEmpty {
            try Self.durably(queue) { db in
                for removal in pending { _ = try Self.apply(removal, in: db) }
            }
        }
        state.withLockedValue { state in
            state.database = queue
            state.failedAt = nil
            state.file = file
            state.pendingRemovals.removeFirst(min(pending.count, state.pendingRemovals.count))
        }
        return queue
    }

    /// Makes an empty file of mode 0600 at `url` unless one is there: `O_EXCL` makes it where
    /// it is, so a file that appears first is never replaced.
    private static func makeFileIfMissing(at url: URL) {
        #if canImport(Darwin)
        let made = Darwin.open(url.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        #elseif canImport(Glibc)
        let made = Glibc.open(url.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        #else
        let made = Musl.open(url.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        #endif
        if made >= 0 { close(made) }
    }

    /// The file-system number of the file at `url`, which tells whether the path still names the
    /// file a store opened.
    private static func fileNumber(of url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
    }

    /// The schema's version, in SQLite's `user_version`.
    private static let schemaVersion = 3

    /// Makes the tables, in one write transaction that waits for any other connection's, so that
    /// two stores opening a new file at once make them once. A file of an earlier schema (the
    /// first kept plain-text keys) loses its replies. Returns whether it had some to lose.
    private static func makeSchema(in queue: DatabaseQueue) throws -> Bool {
        try queue.write { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            guard version < schemaVersion else { return false }
            let earlier = try db.tableExists("reply")
            try db.execute(sql: """
                DROP TABLE IF EXISTS reply_tag;
                DROP TABLE IF EXISTS reply;
                DROP TABLE IF EXISTS setting;
                DROP TABLE IF EXISTS account_link;
                DROP TABLE IF EXISTS usage;
                DROP TABLE IF EXISTS removal;
                DROP TABLE IF EXISTS grdb_migrations;
                CREATE TABLE reply (
                    key TEXT PRIMARY KEY NOT NULL,
                    account TEXT,
                    call TEXT NOT NULL,
                    reply BLOB NOT NULL,
                    body BLOB NOT NULL,
                    cost INTEGER NOT NULL,
                    used REAL NOT NULL
                );
                CREATE INDEX reply_used ON reply(used);
                CREATE INDEX reply_account ON reply(account);
                CREATE INDEX reply_call ON reply(call);
                CREATE TABLE reply_tag (
                    tag TEXT NOT NULL,
                    key TEXT NOT NULL REFERENCES reply(key) ON DELETE CASCADE,
                    PRIMARY KEY (tag, key)
                );
                CREATE INDEX reply_tag_key ON reply_tag(key);
                CREATE TABLE account_link (credential TEXT NOT NULL, account TEXT NOT NULL, UNIQUE (credential, account));
                CREATE INDEX account_link_account ON account_link(account);
                CREATE TABLE usage (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    bytes INTEGER NOT NULL,
                    removals INTEGER NOT NULL,
                    forgotten INTEGER NOT NULL
                );
                INSERT INTO usage (id, bytes, removals, forgotten) VALUES (1, 0, 0, 0);
                CREATE TABLE removal (name TEXT PRIMARY KEY NOT NULL, number INTEGER NOT NULL);
                CREATE INDEX removal_number ON removal(number);
                CREATE TABLE setting (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                PRAGMA user_version = \(schemaVersion);
                """)
            return earlier
        }
    }

    /// The file, its WAL files and its key's file are readable by the app's user alone.
    private static func protect(_ url: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        for suffix in ["-wal", "-shm", ".key"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path + suffix)
        }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path)
        #endif
    }

    /// Whether SQLite says the file is damaged or is not a database: the only reasons to discard it.
    private static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Removes the database SQLite reported damaged through `damaged` (nil while opening), with a
    /// warning; false when another call has replaced that database already. The files go only
    /// while the path still names the file `damaged` was opened from: another store (another
    /// manager, another process) that discarded it first has made a new one there, which is kept.
    @discardableResult
    private func discard(_ damaged: DatabaseQueue?, because error: any Error) -> Bool {
        let discarded = state.withLockedValue { state in
            guard state.database === damaged else { return false }
            let opened = state.file
            state.database = nil
            state.failedAt = nil
            state.file = nil
            let current = try? Self.fileNumber(of: url)
            guard damaged == nil || current == opened else { return true }
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
            return true
        }
        if discarded { logger.warning("apigen's response cache at \(url.path) cannot be read (\(error)); it is discarded and made again") }
        return discarded
    }

    /// The open database. After a failed opening, once `reopenDelay` has passed, it is opened
    /// again on a thread of its own: opening waits for other connections and may sleep, which a
    /// call's task must not do on a thread of the cooperative pool. Until then the store holds
    /// nothing.
    private var database: DatabaseQueue? {
        let (database, reopens) = state.withLockedValue { state -> (DatabaseQueue?, Bool) in
            guard state.database == nil, !state.isReopening, let failedAt = state.failedAt,
                Date().timeIntervalSince(failedAt) > Self.reopenDelay
            else { return (state.database, false) }
            state.isReopening = true
            return (nil, true)
        }
        if reopens { reopenInBackground() }
        return database
    }

    /// Opens the database on a thread of its own; `isReopening` is set.
    private func reopenInBackground() {
        Thread.detachNewThread { [self] in
            open()
            state.withLockedValue { $0.isReopening = false }
        }
    }

    /// Runs `work` on the database; a failure is logged, and a database SQLite reports damaged is
    /// discarded and made again, so that the call goes on as if nothing were stored.
    private func withDatabase<T>(_ what: String, otherwise: T, _ work: (DatabaseQueue) throws -> T) -> T {
        guard let queue = database else { return otherwise }
        do {
            return try work(queue)
        } catch where Self.isDamage(error) {
            if discard(queue, because: error) {
                state.withLockedValue { $0.isReopening = true }
                reopenInBackground()
            }
            return otherwise
        } catch {
            logger.warning("apigen's response cache could not \(what) (\(error))")
            return otherwise
        }
    }

    // MARK: ResponseStore

    var bytes: Int {
        withDatabase("count its bytes", otherwise: 0) { queue in
            try queue.read { db in try Int.fetchOne(db, sql: "SELECT bytes FROM usage") ?? 0 }
        }
    }

    var count: Int {
        withDatabase("count its replies", otherwise: 0) { queue in
            try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reply") ?? 0 }
        }
    }

    func reply(for key: CacheKey) -> CachedReply? {
        let text = key.text
        let row: (reply: Data, body: Data, used: Double)? = withDatabase("read a reply", otherwise: nil) { queue in
            try queue.read { db in
                try Row.fetchOne(db, sql: "SELECT reply, body, used FROM reply WHERE key = ?", arguments: [text]).map { ($0["reply"], $0["body"], $0["used"]) }
            }
        }
        guard let row else { return nil }
        let now = Date().timeIntervalSince1970
        if now - row.used > Self.recencyGranularity {
            withDatabase("mark a reply used", otherwise: ()) { queue in
                try queue.write { db in try db.execute(sql: "UPDATE reply SET used = ? WHERE key = ?", arguments: [now, text]) }
            }
        }
        do {
            var reply = try JSONDecoder().decode(CachedReply.self, from: row.reply)
            reply.body = row.body
            reply.headers = unsealed(reply.headers)
            reply.trailers = unsealed(reply.trailers)
            return reply
        } catch {
            logger.warning("apigen's response cache holds a reply it cannot read (\(error)); it is removed")
            remove(key)
            return nil
        }
    }

    var removalMark: Int {
        withDatabase("read its removals", otherwise: 0) { queue in
            try queue.read { db in try Int.fetchOne(db, sql: "SELECT removals FROM usage") ?? 0 }
        }
    }

    @discardableResult
    func store(_ reply: CachedReply, for key: CacheKey, linking credentials: [String], unlessRemovedSince mark: Int) -> Bool {
        let text = key.text
        let cost = reply.cost(key: text)
        guard cost <= maxBytes else {
            remove(key)
            return false
        }
        var described = reply
        described.body = Data()
        described.headers = sealed(reply.headers)
        described.trailers = sealed(reply.trailers)
        guard let encoded = try? JSONEncoder().encode(described) else { return false }
        let names = RemovalLog.names(call: reply.call, tags: reply.tags, account: key.account, credentials: credentials)
        return withDatabase("store a reply", otherwise: false) { queue in
            try queue.write { db in
                guard try !Self.removed(since: mark, anyOf: names, in: db) else { return false }
                try Self.delete(in: db, where: "key = ?", [text])
                try db.execute(
                    sql: "INSERT INTO reply (key, account, call, reply, body, cost, used) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [text, reply.account, reply.call, encoded, reply.body, cost, Date().timeIntervalSince1970]
                )
                for tag in reply.tags {
                    try db.execute(sql: "INSERT INTO reply_tag (tag, key) VALUES (?, ?)", arguments: [tag, text])
                }
                try db.execute(sql: "UPDATE usage SET bytes = bytes + ?", arguments: [cost])
                // Past the bound, the least recently used go, a batch at a time.
                while try (Int.fetchOne(db, sql: "SELECT bytes FROM usage") ?? 0) > maxBytes {
                    let victims = try String.fetchAll(db, sql: "SELECT key FROM reply WHERE key != ? ORDER BY used LIMIT 64", arguments: [text])
                    if victims.isEmpty { break }
                    for victim in victims {
                        try Self.delete(in: db, where: "key = ?", [victim])
                        if try (Int.fetchOne(db, sql: "SELECT bytes FROM usage") ?? 0) <= maxBytes { break }
                    }
                }
                if let account = key.account { try Self.link(credentials, to: account, in: db) }
                return true
            }
        }
    }

    func remove(_ key: CacheKey) {
        delete("remove a reply", where: "key = ?", [key.text])
    }

    @discardableResult
    func removeAll(call: String) -> Int {
        remove(.call(call), "remove a call's replies")
    }

    @discardableResult
    func removeAll(tagged tag: String) -> Int {
        remove(.tagged(tag), "remove tagged replies")
    }

    @discardableResult
    func removeAll(account: String) -> Int {
        remove(.account(account), "remove an account's replies")
    }

    @discardableResult
    func removeAll(credential: String) -> Int {
        remove(.credential(credential), "remove an account's replies")
    }

    func removeAll() {
        remove(.everything, "remove every reply")
    }

    /// Makes `removal`, durably; while the file cannot be opened, keeps it to make once it is, so
    /// that a log-out is never lost. Returns how many replies went.
    @discardableResult
    private func remove(_ removal: Removal, _ what: String) -> Int {
        let queue: DatabaseQueue? = state.withLockedValue { state in
            if state.database == nil { state.pendingRemovals.append(removal) }
            return state.database
        }
        guard queue != nil else {
            _ = database  // tries the file again when it is due
            return 0
        }
        return withDatabase(what, otherwise: 0) { queue in try Self.durably(queue) { db in try Self.apply(removal, in: db) } }
    }

    private static func apply(_ removal: Removal, in db: Database) throws -> Int {
        switch removal {
        case .call(let call):
            try note(["call:" + call], in: db)
            return try Self.delete(in: db, where: "call = ?", [call])
        case .tagged(let tag):
            try note(["tag:" + tag], in: db)
            return try Self.delete(in: db, where: "key IN (SELECT key FROM reply_tag WHERE tag = ?)", [tag])
        case .account(let account):
            return try removeAll(accounts: [account], in: db)
        case .credential(let credential):
            try note(["credential:" + credential], in: db)
            let linked = try String.fetchAll(db, sql: "SELECT account FROM account_link WHERE credential = ?", arguments: [credential])
            return try removeAll(accounts: Set(linked).union([credential]), in: db)
        case .everything:
            // One removal that stands for every name before it.
            try db.execute(sql: "UPDATE usage SET removals = removals + 1, forgotten = removals + 1")
            try db.execute(sql: "DELETE FROM removal")
            try db.execute(sql: "DELETE FROM account_link")
            return try Self.delete(in: db, where: "1", [])
        }
    }

    private static func removeAll(accounts: Set<String>, in db: Database) throws -> Int {
        try note(accounts.map { "account:" + $0 }, in: db)
        var removed = 0
        for account in accounts {
            try db.execute(sql: "DELETE FROM account_link WHERE account = ?", arguments: [account])
            removed += try Self.delete(in: db, where: "account = ?", [account])
        }
        return removed
    }

    /// Runs a removal's `work` in a write transaction whose commit waits for the disk
    /// (`synchronous = FULL`), unlike a stored reply's: a log-out must survive a power cut, where a
    /// reply lost is only a miss. Removals are rare (a log-out, a mutation's `invalidates:`).
    private static func durably<T>(_ queue: DatabaseQueue, _ work: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
            var result: T?
            try db.inTransaction(.immediate) {
                result = try work(db)
                return .commit
            }
            guard let result else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the removal was not made") }
            return result
        }
    }

    /// Deletes the rows `condition` picks, in a transaction of its own; returns how many.
    @discardableResult
    private func delete(_ what: String, where condition: String, _ arguments: StatementArguments) -> Int {
        withDatabase(what, otherwise: 0) { queue in
            try queue.write { db in try Self.delete(in: db, where: condition, arguments) }
        }
    }

    // MARK: Removals

    /// Numbers a removal of every reply kept under one of `names`, in the file, so that a call in
    /// flight in any store on it (another manager, another process) stores nothing under them
    /// after it (`RemovalLog` keeps the same rules in memory). Past `RemovalLog.limit` names, the
    /// older half goes, and their numbers are remembered as one.
    private static func note(_ names: [String], in db: Database) throws {
        try db.execute(sql: "UPDATE usage SET removals = removals + 1")
        let number = try Int.fetchOne(db, sql: "SELECT removals FROM usage") ?? 0
        for name in names {
            try db.execute(
                sql: "INSERT INTO removal (name, number) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET number = excluded.number",
                arguments: [name, number]
            )
        }
        guard try (Int.fetchOne(db, sql: "SELECT COUNT(*) FROM removal") ?? 0) > RemovalLog.limit,
            let kept = try Int.fetchOne(db, sql: "SELECT number FROM removal ORDER BY number DESC LIMIT 1 OFFSET ?", arguments: [RemovalLog.limit / 2 - 1])
        else { return }
        try db.execute(sql: "DELETE FROM removal WHERE number < ?", arguments: [kept])
        try db.execute(sql: "UPDATE usage SET forgotten = MAX(forgotten, ?)", arguments: [kept - 1])
    }

    /// Whether a reply kept under any of `names` was removed after `mark`.
    private static func removed(since mark: Int, anyOf names: [String], in db: Database) throws -> Bool {
        guard let row = try Row.fetchOne(db, sql: "SELECT removals, forgotten FROM usage") else { return false }
        let latest: Int = row["removals"], forgotten: Int = row["forgotten"]
        guard latest != mark else { return false }
        // A mark past the latest number was read from a file since made anew.
        if mark > latest || forgotten > mark { return true }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM removal WHERE number > ? AND name IN (\(placeholders)))",
            arguments: StatementArguments([mark] + names)
        ) ?? false
    }

    /// Deletes the rows `condition` picks and takes their bytes off the file's total; returns how many.
    @discardableResult
    private static func delete(in db: Database, where condition: String, _ arguments: StatementArguments) throws -> Int {
        let removed = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(cost), 0) FROM reply WHERE \(condition)", arguments: arguments) ?? 0
        try db.execute(sql: "DELETE FROM reply WHERE \(condition)", arguments: arguments)
        let count = db.changesCount
        try db.execute(sql: "UPDATE usage SET bytes = MAX(0, bytes - ?)", arguments: [removed])
        return count
    }

    // MARK: Sealed fields

    /// `fields` with the value of each secret one (`CachedReply.isSecret`) sealed with AES-GCM
    /// under a key derived from the store's: the file holds no token a reply handed back, and a
    /// hit still gives it.
    private func sealed(_ fields: HTTPFields) -> HTTPFields {
        guard fields.contains(where: { CachedReply.isSecret($0.name) }) else { return fields }
        let key = sealingKey
        return HTTPFields(fields.compactMap { field in
            guard CachedReply.isSecret(field.name) else { return field }
            guard let box = try? AES.GCM.seal(Data(field.value.utf8), using: key).combined else { return nil }
            return HTTPField(name: field.name, value: box.base64EncodedString())
        })
    }

    /// `fields` with their sealed values opened; a field that does not open (sealed under a key
    /// since replaced) is left out.
    private func unsealed(_ fields: HTTPFields) -> HTTPFields {
        guard fields.contains(where: { CachedReply.isSecret($0.name) }) else { return fields }
        let key = sealingKey
        return HTTPFields(fields.compactMap { field in
            guard CachedReply.isSecret(field.name) else { return field }
            guard let box = Data(base64Encoded: field.value), let sealedBox = try? AES.GCM.SealedBox(combined: box),
                let opened = try? AES.GCM.open(sealedBox, using: key), let value = String(data: opened, encoding: .utf8)
            else { return nil }
            return HTTPField(name: field.name, value: value)
        })
    }

    /// The key fields are sealed under: derived from the digests' key, never the same bytes.
    private var sealingKey: SymmetricKey {
        let key = digestKey.withLockedValue { $0.key }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("apigen.response-cache.sealed-fields".utf8), outputByteCount: 32)
    }

    /// HMAC-SHA256 of `text` under the store's key, in hexadecimal.
    func digest(_ text: String) -> String {
        let key = digestKey.withLockedValue { $0.key }
        return HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    func account(of credential: String) -> String {
        withDatabase("read an account", otherwise: credential) { queue in
            try queue.read { db in
                try String.fetchOne(db, sql: "SELECT account FROM account_link WHERE credential = ? ORDER BY rowid LIMIT 1", arguments: [credential]) ?? credential
            }
        }
    }

    func link(_ credentials: [String], to account: String) {
        withDatabase("link an account's credentials", otherwise: ()) { queue in
            try queue.write { db in try Self.link(credentials, to: account, in: db) }
        }
    }

    /// Links `credentials` to `account`. Past `linkLimit` links, those of accounts with no reply
    /// left go, as the memory store's do: the bound on bytes does not count them.
    private static func link(_ credentials: [String], to account: String, in db: Database) throws {
        for credential in credentials where credential != account {
            try db.execute(sql: "INSERT OR IGNORE INTO account_link (credential, account) VALUES (?, ?)", arguments: [credential, account])
        }
        guard try (Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account_link") ?? 0) > linkLimit else { return }
        try db.execute(sql: "DELETE FROM account_link WHERE account NOT IN (SELECT account FROM reply WHERE account IS NOT NULL)")
    }

    private static let linkLimit = 4096
}
