import CEncryptedVFS
import CSodium
import Foundation
import GRDB
import GRDBSQLite

/// How the stores of an encrypted journal are opened: through an instance of the encrypting VFS
/// (`CEncryptedVFS`) that holds the journal's data key, each store naming its identity.
///
/// Invariant: every SQLite connection to an encrypted journal's stores is opened at
/// ``location(of:identity:immutable:strictLog:)`` and set up by ``prepare(_:)``, so its pages have room
/// for their nonce and tag and its temporary files stay in memory; the data key is wiped
/// when the value is released.
package final class StoreEncryption: @unchecked Sendable {
    /// Each encrypted file's identity, from which its key is derived and to which its pages
    /// are bound: a page can't be moved from one to another.
    package enum Identity: Int {
        case mainStore = 1
        case searchStore = 2
        case prefixTableFile = 3
        /// The scratch search store `journal compare` builds to time an index's build.
        case scratchSearchStore = 4
    }

    private let key: GuardedBytes
    private let vfs: OpaquePointer
    private let vfsName: String

    private static let registering = NSLock()
    nonisolated(unsafe) private static var registered = 0

    /// An encrypting VFS for the journal whose data key is `key`.
    init(key: GuardedBytes) throws(JournalError) {
        self.key = key
        let number = Self.registering.withLock {
            Self.registered += 1
            return Self.registered
        }
        vfsName = "journal-encrypted-\(number)"
        var registered: OpaquePointer?
        guard encrypted_vfs_register(vfsName, key.typed, &registered) == SQLITE_OK, let registered else {
            throw .store("cannot set up the encrypted journal's file layer")
        }
        vfs = registered
    }

    deinit { encrypted_vfs_retire(vfs) }

    /// The SQLite URI that opens the store at `url` through this journal's VFS. With
    /// `strictLog` (a store synced at every commit), a frame of its log that fails to
    /// authenticate with a later transaction after it is an error, not the log's end.
    func location(of url: URL, identity: Identity, immutable: Bool = false, strictLog: Bool = false) -> String {
        let path = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? url.path
        return "file:\(path)?vfs=\(vfsName)&encrypted-file=\(identity.rawValue)" + (immutable ? "&immutable=1" : "")
            + (strictLog ? "&strict-log=1" : "")
    }

    /// How the file `identity`, which the journal writes itself, is sealed: under its own key,
    /// derived from the data key as the VFS derives each store's (libsodium's `crypto_kdf`).
    func sealing(_ identity: Identity) throws(JournalError) -> ChunkSealing {
        let fileKey = try GuardedBytes(count: JournalKeyFile.keyBytes)
        guard
            crypto_kdf_derive_from_key(
                fileKey.mutableTyped, fileKey.count, UInt64(identity.rawValue), "jrnlfile", key.typed) == 0
        else {
            throw .store("cannot derive the key of an encrypted file")
        }
        return ChunkSealing(key: fileKey)
    }

    /// Sets up a new connection: a store created by it reserves each page's last bytes for
    /// the nonce and tag. (Temporary tables and indices stay in memory on every store's
    /// connections, ``StoreDatabase``.)
    static func prepare(_ db: Database) throws {
        var reserved = Int32(ENCRYPTED_VFS_RESERVED_BYTES)
        _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved)
    }

    /// The encrypting VFS's account of the last page of the store at `path` (or of its log) it
    /// refused, or nil.
    static func lastFailure(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 320)
        encrypted_vfs_last_failure(path, &buffer, Int32(buffer.count))
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.isEmpty ? nil : text
    }
}
