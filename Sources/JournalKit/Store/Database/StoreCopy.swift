import Foundation
import GRDB
import GRDBSQLite

/// A store copied whole into a new file, as it is at one moment, encrypted or in plain text
/// whatever the original was: for converting a journal between the two.
///
/// Invariant: the copy is SQLite's own (`VACUUM INTO`): a consistent snapshot of the store,
/// every table, index and setting, synced before it returns; the original is only read.
enum StoreCopy {
    /// Copies the store at `source` (read through `encryption`, as `identity`) into a new file
    /// at `target`, encrypted through `targetEncryption` or in plain text. `progress` is told
    /// the bytes written so far and the original's size.
    static func copy(
        _ source: URL, encryption: StoreEncryption?, identity: StoreEncryption.Identity, to target: URL,
        encryption targetEncryption: StoreEncryption?, progress: ((Int, Int) -> Void)? = nil
    ) throws(JournalError) {
        // VACUUM INTO writes into an empty file: this one, readable by its owner only.
        try DurableFiles.createPrivateFile(at: target)
        try StoreDatabase.guarded(source) {
            var configuration = Configuration()
            configuration.busyMode = .timeout(StoreDatabase.busyTimeout)
            configuration.prepareDatabase { db in
                if encryption != nil { try StoreEncryption.prepare(db) }
            }
            let queue = try DatabaseQueue(
                path: StoreDatabase.location(of: source, encryption: encryption, identity: identity),
                configuration: configuration)
            defer { try? queue.close() }
            let destination: String
            if let targetEncryption {
                destination = targetEncryption.location(of: target, identity: identity)
            } else {
                // Named, or the copy would open through the original's VFS.
                let plain = String(cString: sqlite3_vfs_find(nil).pointee.zName)
                let path = target.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? target.path
                destination = "file:\(path)?vfs=\(plain)"
            }
            try queue.inDatabase { db in
                // The copy's pages reserve what the original's do, or, when it is to be
                // encrypted, room for a nonce and tag.
                if targetEncryption != nil { try StoreEncryption.prepare(db) }
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
                let watcher = CopyWatcher(target: target, total: StoreDirectory.fileBytes(source), report: progress)
                try watcher.watching(db) { try db.execute(sql: "VACUUM INTO ?", arguments: [destination]) }
            }
        }
        try DurableFiles.syncFile(atPath: target.path)
    }
}

/// Reports how far a copy is from SQLite's progress handler: the size of the file written.
private final class CopyWatcher {
    let target: URL
    let total: Int
    let report: ((Int, Int) -> Void)?

    init(target: URL, total: Int, report: ((Int, Int) -> Void)?) {
        self.target = target
        self.total = total
        self.report = report
    }

    func watching(_ db: Database, _ body: () throws -> Void) throws {
        guard report != nil else { return try body() }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(
            db.sqliteConnection, 100_000,
            { context in
                guard let context else { return 0 }
                let watcher = Unmanaged<CopyWatcher>.fromOpaque(context).takeUnretainedValue()
                watcher.report?(StoreDirectory.fileSize(atPath: watcher.target.path) ?? 0, watcher.total)
                return 0
            }, context)
        defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
        try withExtendedLifetime(self) { try body() }
    }
}
