import Foundation
import GRDB

/// What the ledger keeps for compaction (<doc:Syncing>):
///
/// - `sync_floor(store, number, device, version)`: the versions of each entry (``EntryKey``)
///   compaction removed, by device: those `device` made of it up to `version`, in
///   ``SyncVersion``'s order. They are
///   gone from the ledger, and passed over when a file still holding one is read.
/// - `sync_compactable(store, number)`: the entries that may have versions to remove (more than
///   one known).
///
/// Invariant: no version under a floor is in `sync_version`; an entry with more than one version
/// known is in `sync_compactable` until compaction has removed all but its head.
extension SyncLedger {
    /// Makes the tables, in a ledger started before compaction was (`start` makes them too).
    static func startCompaction(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS sync_floor (
                    store BLOB NOT NULL, number INTEGER NOT NULL, device TEXT NOT NULL, version TEXT NOT NULL,
                    PRIMARY KEY (store, number, device)
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS sync_compactable (
                    store BLOB NOT NULL, number INTEGER NOT NULL, PRIMARY KEY (store, number)
                ) WITHOUT ROWID;
                """)
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(sync_peer)").map { $0["name"] as String }
        if !columns.contains("last") { try db.execute(sql: "ALTER TABLE sync_peer ADD COLUMN last TEXT") }
        // A device that wrote files before lines were counted: how many they hold is not known.
        if try info(Key.writtenLines, in: db) == nil {
            try setInfo(Key.writtenLines, try nextFile(in: db) > 1 ? "-1" : "0", in: db)
        }
    }

    /// The devices a user said are gone (`journal sync --forget`), each with when: compaction
    /// waits for none of them until it says how far it has taken in after that.
    static func forgotten(in db: Database) throws -> [UUID: Int64] {
        try infoByDevice(Key.forgottenPrefix, in: db).compactMapValues { Int64($0) }
    }

    static func forget(_ device: UUID, at time: Int64, in db: Database) throws {
        try setInfo(Key.forgottenPrefix + device.uuidString, String(time), in: db)
    }

    static func markCompactable(_ key: EntryKey, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO sync_compactable (store, number) VALUES (?, ?)")
            .execute(arguments: [key.store, key.number])
    }

    /// The entries that may have versions to remove.
    static func compactable(in db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT store, number FROM sync_compactable").map { try key($0, at: 0).uri }
    }

    static func settled(_ uri: String, in db: Database) throws {
        let key = try key(uri)
        try db.cachedStatement(sql: "DELETE FROM sync_compactable WHERE store = ? AND number = ?")
            .execute(arguments: [key.store, key.number])
    }

    /// Every version known of `uri`, and whether it is a head.
    static func versions(of uri: String, in db: Database) throws -> [(version: SyncVersion, head: Bool)] {
        let key = try key(uri)
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT version, head FROM sync_version WHERE store = ? AND number = ?"),
            arguments: [key.store, key.number]
        ).compactMap { row in SyncVersion(row[0]).map { ($0, row[1]) } }
    }

    /// Whether compaction has removed any version here.
    static func hasFloors(in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_floor)") ?? false
    }

    /// Whether `record`'s version is one compaction removed.
    static func isRemoved(_ record: SyncRecord, in db: Database) throws -> Bool {
        guard let version = SyncVersion(record.version) else { return false }
        let key = try key(record.entry)
        return try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT version >= ? FROM sync_floor WHERE store = ? AND number = ? AND device = ?"),
            arguments: [record.version, key.store, key.number, version.device.uuidString]) ?? false
    }

    /// What removing versions did.
    struct Removal {
        /// Versions removed from the ledger, and of them those made by the device `own` names.
        var versions = 0
        var own = 0
        /// Whether a head was among them: the entry must be settled again.
        var head = false
    }

    /// Removes `device`'s versions of `uri` up to `version` (`version` names its device), and
    /// keeps the floor, raised if it is higher than the one kept.
    static func removeVersions(
        of uri: String, through version: SyncVersion, own: UUID?, in db: Database
    ) throws -> Removal {
        let (device, key) = (version.device.uuidString, try key(uri))
        let kept = try String.fetchOne(
            db.cachedStatement(sql: "SELECT version FROM sync_floor WHERE store = ? AND number = ? AND device = ?"),
            arguments: [key.store, key.number, device])
        guard kept.map({ $0 < version.description }) ?? true else { return Removal() }
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_floor (store, number, device, version) VALUES (?, ?, ?, ?)
                ON CONFLICT(store, number, device) DO UPDATE SET version = excluded.version
                """
        ).execute(arguments: [key.store, key.number, device, version.description])
        let removed = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT version, head FROM sync_version
                    WHERE store = ? AND number = ? AND version <= ? AND substr(version, 26) = ?
                    """),
            arguments: [key.store, key.number, version.description, device])
        var removal = Removal()
        for row in removed {
            let (text, head): (String, Bool) = (row[0], row[1])
            for table in ["sync_version", "sync_parent"] {
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE store = ? AND number = ? AND version = ?")
                    .execute(arguments: [key.store, key.number, text])
            }
            removal.versions += 1
            if version.device == own { removal.own += 1 }
            removal.head = removal.head || head
        }
        return removal
    }

    /// The versions kept that a floor removed (none, if the ledger is as it should be).
    static func keptThoughRemoved(in db: Database) throws -> [(uri: String, version: String)] {
        guard
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'sync_floor')") == true
        else { return [] }
        return try Row.fetchAll(
            db,
            sql: """
                SELECT v.store, v.number, v.version FROM sync_floor f JOIN sync_version v
                ON v.store = f.store AND v.number = f.number AND v.version <= f.version
                    AND substr(v.version, 26) = f.device
                ORDER BY v.store, v.number, v.version
                """
        ).map { (try key($0, at: 0).uri, $0[2]) }
    }

    /// Every floor kept, an entry a line.
    static func floors(in db: Database) throws -> [SyncFloor] {
        var floors: [SyncFloor] = []
        let rows = try Row.fetchCursor(
            db, sql: "SELECT store, number, version FROM sync_floor ORDER BY store, number, device")
        while let row = try rows.next() {
            let (uri, version): (String, String) = (try key(row, at: 0).uri, row[2])
            if floors.last?.entry == uri {
                floors[floors.count - 1].through.append(version)
            } else {
                floors.append(SyncFloor(entry: uri, through: [version]))
            }
        }
        return floors
    }
}

extension SyncLedger.Key {
    /// The lines in this device's files from its latest snapshot on (-1 when not known), how
    /// many of them are floors and how many hold versions compaction has removed since, and the
    /// last version it wrote: when a snapshot would hold half as many lines, it replaces them.
    static let writtenLines = "sync_written_lines"
    static let floorLines = "sync_floor_lines"
    static let removedLines = "sync_removed_lines"
    static let lastWritten = "sync_last_written"
    /// The number of a snapshot of this device's files begun and not yet finished.
    static let pendingSnapshot = "sync_pending_snapshot"
    /// What the device last said it has taken in (``SyncTaken``'s versions taken, `|`, the
    /// version written), and when.
    static let takenPublished = "sync_taken_published"
    static let takenPublishedAt = "sync_taken_published_at"
}

extension SyncLedger {
    /// The number of this device's next file.
    static func nextFile(in db: Database) throws -> Int {
        Int(try info(Key.nextFile, in: db) ?? "1") ?? 1
    }

    /// A device of its own: its files start at 1.
    static func startFiles(in db: Database) throws {
        try setInfo(Key.nextFile, "1", in: db)
        for key in [Key.writtenLines, Key.floorLines, Key.removedLines] { try setInfo(key, "0", in: db) }
        try db.execute(
            sql: "DELETE FROM store_info WHERE key IN (?, ?, ?)",
            arguments: [Key.lastWritten, Key.takenPublished, Key.pendingSnapshot])
    }

    /// Records that file `number` was written with `lines` lines, `floors` of them floors, the
    /// last version in it `last`.
    static func wroteFile(_ number: Int, lines: Int, floors: Int, last: String?, in db: Database) throws {
        try setInfo(Key.nextFile, String(number + 1), in: db)
        let written = Int(try info(Key.writtenLines, in: db) ?? "") ?? 0
        if written >= 0 { try setInfo(Key.writtenLines, String(written + lines), in: db) }
        try add(floors, to: Key.floorLines, in: db)
        if let last { try setInfo(Key.lastWritten, last, in: db) }
    }

    /// Records that `count` more lines of this device's files hold removed versions.
    static func removedOwnLines(_ count: Int, in db: Database) throws {
        try add(count, to: Key.removedLines, in: db)
    }

    private static func add(_ count: Int, to key: String, in db: Database) throws {
        guard count != 0 else { return }
        try setInfo(key, String((Int(try info(key, in: db) ?? "") ?? 0) + count), in: db)
    }

    /// How this device's files stand: their lines (-1 when not known), and how many lines a
    /// snapshot of them would hold (the versions not removed, and a floor per entry).
    static func ownLines(in db: Database) throws -> (written: Int, snapshot: Int) {
        let written = Int(try info(Key.writtenLines, in: db) ?? "") ?? -1
        let floorLines = Int(try info(Key.floorLines, in: db) ?? "") ?? 0
        let removed = Int(try info(Key.removedLines, in: db) ?? "") ?? 0
        guard written > 0, floorLines + removed > 0 else { return (written, written) }
        let floors =
            try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT DISTINCT store, number FROM sync_floor)") ?? 0
        return (written, written - floorLines - removed + floors)
    }

    /// Records how this device's files stand, counted from them.
    static func counted(lines: Int, floors: Int, removed: Int, in db: Database) throws {
        try setInfo(Key.writtenLines, String(lines), in: db)
        try setInfo(Key.floorLines, String(floors), in: db)
        try setInfo(Key.removedLines, String(removed), in: db)
    }

    /// Takes file number `number` for a snapshot of this device's files, before it is written.
    static func reserveSnapshot(_ number: Int, in db: Database) throws {
        try setInfo(Key.nextFile, String(number + 1), in: db)
        try setInfo(Key.pendingSnapshot, String(number), in: db)
    }

    /// The snapshot begun and not finished, if any.
    static func pendingSnapshot(in db: Database) throws -> Int? {
        try info(Key.pendingSnapshot, in: db).flatMap { Int($0) }
    }

    /// Records that snapshot `number` replaced this device's files, with `lines` lines, `floors`
    /// of them floors.
    static func wroteSnapshot(_ number: Int, lines: Int, floors: Int, in db: Database) throws {
        try db.execute(sql: "DELETE FROM store_info WHERE key = ?", arguments: [Key.pendingSnapshot])
        try setInfo(Key.nextFile, String(max(number + 1, try nextFile(in: db))), in: db)
        try setInfo(Key.writtenLines, String(lines), in: db)
        try setInfo(Key.floorLines, String(floors), in: db)
        try setInfo(Key.removedLines, "0", in: db)
    }
}
