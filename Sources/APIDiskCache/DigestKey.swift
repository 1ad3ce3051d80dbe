import Crypto
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if canImport(Security)
import Security
#endif

/// The key of a disk store's digests, kept apart from its database, so that a copy of the file
/// alone gives nothing to guess credentials against: in the Keychain on Apple platforms (in a
/// file beside the database if the Keychain cannot be used, as for a tool without entitlements),
/// and elsewhere in a file beside the database (`<name>.sqlite.key`, mode 0600).
enum DigestKey {
    /// The key for the database at `url`, made at random the first time. Two stores that open the
    /// same database at once get the same key.
    static func load(for url: URL) throws -> SymmetricKey {
        let file = url.appendingPathExtension("key")
        #if canImport(Security)
        // A key once kept in a file (the Keychain could not be used then) stays the key: were it
        // to change, every reply would have to go.
        if case .missing? = try? readKey(at: file), let key = try? keychainKey(for: url) { return key }
        #endif
        return try fileKey(at: file)
    }

    /// The key in `file`, or a new one written there, under a lock beside it that every store of
    /// every process takes, so that two stores never make two keys. A new key is written to a
    /// file of its own and then linked to `file`, so that it is never read half-written. A file
    /// that holds no key (cut short, a link to nothing) is replaced: the replies digested under
    /// the key it held can never be found again, and the store removes them when it sees its key
    /// changed. A file that cannot be read for now (too many open files) fails the opening, which
    /// the store tries again later.
    static func fileKey(at file: URL) throws -> SymmetricKey {
        try withLock(URL(fileURLWithPath: file.path + ".lock")) {
            switch try readKey(at: file) {
            case .key(let key): return key
            case .damaged: unlink(file.path)
            case .missing: break
            }
            let made = SymmetricKey(size: .bits256)
            let draft = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
            let bytes = made.withUnsafeBytes { Data($0) }
            guard FileManager.default.createFile(atPath: draft.path, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: draft.path])
            }
            defer { unlink(draft.path) }
            guard link(draft.path, file.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
            return made
        }
    }

    /// Runs `work` holding an exclusive `flock` on the file at `url` (made, mode 0600, if missing).
    private static func withLock<T>(_ url: URL, _ work: () throws -> T) throws -> T {
        let descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: url.path]) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try work()
    }

    private enum FileContents {
        case key(SymmetricKey)
        /// Nothing at the path, not even a link.
        case missing
        /// Something that holds no key: bytes of another length, a link to nothing.
        case damaged
    }

    private static func readKey(at file: URL) throws -> FileContents {
        // Of the path itself, not where a link leads.
        guard (try? FileManager.default.attributesOfItem(atPath: file.path)) != nil else { return .missing }
        // A link whose file is gone.
        guard FileManager.default.fileExists(atPath: file.path) else { return .damaged }
        let bytes = try Data(contentsOf: file)
        return bytes.count == 32 ? .key(SymmetricKey(data: bytes)) : .damaged
    }

    #if canImport(Security)
    /// The key in the Keychain, as a generic password named after the database's file (not its
    /// path, which an app's update moves), readable after the device's first unlock and never
    /// synced; made if there is none.
    private static func keychainKey(for url: URL) throws -> SymmetricKey {
        let item: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrService: "apigen.response-cache",
            kSecAttrAccount: url.lastPathComponent,
        ]
        var query = item
        query[kSecReturnData] = true
        var found: CFTypeRef?
        let read = SecItemCopyMatching(query as CFDictionary, &found)
        if read == errSecSuccess, let bytes = found as? Data, bytes.count == 32 { return SymmetricKey(data: bytes) }
        guard read == errSecItemNotFound else { throw KeychainFailure(status: read) }
        let made = SymmetricKey(size: .bits256)
        var added = item
        added[kSecValueData] = made.withUnsafeBytes { Data($0) }
        added[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let status = SecItemAdd(added as CFDictionary, nil)
        if status == errSecDuplicateItem { return try keychainKey(for: url) }
        guard status == errSecSuccess else { throw KeychainFailure(status: status) }
        return made
    }

    private struct KeychainFailure: Error {
        let status: OSStatus
    }
    #endif
}
