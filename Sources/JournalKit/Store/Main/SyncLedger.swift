import Foundation
import GRDB
import JournalText

/// What the main store keeps for sync (``Journal/sync(through:passphrase:progress:)-6qhxh``), made the first time a
/// journal syncs; a journal that never syncs has none of it and pays nothing for it:
///
/// - `sync_pending(n)`: the entries changed since sync last looked, kept by triggers on `entry`
///   and on the given tags, so that every way of changing an entry is seen;
/// - `sync_entry(store, number, n, head, merged, digest)`: each entry sync knows, by its URI (its
///   identity on every device; as the ledger keys it: ``SyncLedger+EntryKeys.swift``), the entry
///   here that holds it (none once deleted), the version it is and the other heads merged into
///   it, and a digest of the state held (``SyncedState/digest``);
/// - `sync_version(store, number, version, head, state)`: every version known of each entry,
///   whether it is a head (no known version was made from it), and its state as JSON (none for
///   a delete; left to the entry while it holds it: ``SyncLedger+HeldStates.swift``), kept for
///   the merges it may be the common ancestor of;
/// - `sync_parent(store, number, version, parent)`: the versions each was made from;
/// - `sync_copy(copy, entry, version)`: the copies sync made of an entry's losing heads, while
///   those are heads (a copy that a user changed, or that compaction sent again as a version of
///   its own, is an entry like any other);
/// - `sync_outbox(seq, record)`: records made here, not yet in the folder;
/// - `sync_peer(device, file, records, bytes, last)`: how far each other device's files were
///   taken in: the last file begun, its records and bytes taken, the last version read;
/// - `sync_floor(store, number, device, version)` and `sync_compactable(store, number)`: the
///   versions compaction removed, and the entries it may remove some of
///   (``SyncLedger+Compaction.swift``).
///
/// Invariant: `sync_entry`'s `head` for an entry is the version sync's merge picks from its heads
/// in `sync_version`, and its `n` holds that version's state, in every committed transaction;
/// a record made here is in `sync_outbox` in the transaction that makes it, until it is in the
/// folder.
enum SyncLedger {
    static func isStarted(in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'sync_entry')")) ?? false
    }

    /// The URI sync knows each of the entries `numbers` by, for those it knows by a URI other
    /// than their own in store `storeID` (taken in from another journal, or named by a device).
    static func syncURIs(
        of numbers: some Collection<Int64>, storeID: UUID, in db: Database
    ) throws -> [Int64: String] {
        guard !numbers.isEmpty, try isStarted(in: db) else { return [:] }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT n, store, number FROM sync_entry WHERE n \(SQLParameters.inJSONArray)"),
            arguments: [SQLParameters.jsonArray(numbers)])
        var uris: [Int64: String] = [:]
        while let row = try rows.next() {
            let (n, key): (Int64, EntryKey) = (row[0], try key(row, at: 1))
            if key != EntryKey(EntryID(storeID: storeID, number: n)) { uris[n] = key.uri }
        }
        return uris
    }

    /// The triggers that mark an entry pending when anything a version holds of it changes, by
    /// any path.
    private static let pendingTriggers = """
        CREATE TRIGGER sync_entry_inserted AFTER INSERT ON entry BEGIN
            INSERT OR IGNORE INTO sync_pending (n) VALUES (new.n);
        END;
        CREATE TRIGGER sync_entry_updated AFTER UPDATE OF date, text, starred ON entry BEGIN
            INSERT OR IGNORE INTO sync_pending (n) VALUES (new.n);
        END;
        CREATE TRIGGER sync_entry_deleted AFTER DELETE ON entry BEGIN
            INSERT OR IGNORE INTO sync_pending (n) VALUES (old.n);
        END;
        CREATE TRIGGER sync_tag_given AFTER INSERT ON tag WHEN new.given = 1 BEGIN
            INSERT OR IGNORE INTO sync_pending (n) VALUES (new.entry);
        END;
        CREATE TRIGGER sync_tag_taken AFTER DELETE ON tag WHEN old.given = 1 BEGIN
            INSERT OR IGNORE INTO sync_pending (n) VALUES (old.entry);
        END;
        """
    private static let pendingTriggerNames = [
        "sync_entry_inserted", "sync_entry_updated", "sync_entry_deleted", "sync_tag_given", "sync_tag_taken",
    ]

    /// Runs `body`, a take-in's writes, in a transaction, without the triggers that watch a
    /// user's changes: what a take-in writes is held as sync wrote it, with nothing to send back
    /// (marking each entry pending only to clear the marks at its end is a second row written
    /// per entry), and the states it leaves to entries are the ones it writes
    /// (``SyncLedger+HeldStates.swift``). The triggers are dropped and made again in the
    /// transaction, so no other connection ever sees the journal without them.
    static func takingIn<T>(in db: Database, _ body: () throws -> T) throws -> T {
        for name in pendingTriggerNames + tagTriggerNames { try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)") }
        let result: T
        do {
            result = try body()
        } catch {
            try? db.execute(sql: pendingTriggers + tagTriggers)
            throw error
        }
        try db.execute(sql: pendingTriggers + tagTriggers)
        return result
    }

    /// Makes the tables and triggers, every entry pending: the first sync sends them all.
    static func start(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE sync_pending (n INTEGER PRIMARY KEY);
                \(entryTables)
                CREATE TABLE sync_copy (copy TEXT PRIMARY KEY NOT NULL, entry TEXT NOT NULL, version TEXT NOT NULL) WITHOUT ROWID;
                CREATE INDEX sync_copy_by_entry ON sync_copy(entry);
                CREATE TABLE sync_outbox (seq INTEGER PRIMARY KEY, record TEXT NOT NULL);
                CREATE TABLE sync_peer (
                    device TEXT PRIMARY KEY NOT NULL, file INTEGER NOT NULL, records INTEGER NOT NULL, bytes INTEGER NOT NULL,
                    last TEXT
                ) WITHOUT ROWID;
                \(pendingTriggers)
                INSERT INTO sync_pending (n) SELECT n FROM entry;
                """)
        try startCompaction(in: db)
        try startHeldStates(in: db)
        var firstSyncedThrough = try lastEntryNumber(in: db)
        if let copiedThrough = try info(Key.copiedThrough, in: db).flatMap(Int64.init) {
            try setInfo(Key.namesByDevice, "1", in: db)
            firstSyncedThrough = min(firstSyncedThrough, copiedThrough)
        }
        try db.execute(
            sql: "DELETE FROM store_info WHERE key IN (?, ?)", arguments: [Key.unsyncedClaim, Key.copiedThrough])
        try setInfo(Key.firstSyncedThrough, String(firstSyncedThrough), in: db)
    }

    /// The tables keyed by entry (``EntryKey``) that hold its versions.
    static let entryTables = """
        CREATE TABLE sync_entry (
            store BLOB NOT NULL, number INTEGER NOT NULL, n INTEGER, head TEXT NOT NULL, merged TEXT, digest BLOB,
            PRIMARY KEY (store, number)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX sync_entry_by_n ON sync_entry(n) WHERE n IS NOT NULL;
        CREATE TABLE sync_version (
            store BLOB NOT NULL, number INTEGER NOT NULL, version TEXT NOT NULL, head INTEGER NOT NULL, state TEXT,
            PRIMARY KEY (store, number, version)
        ) WITHOUT ROWID;
        CREATE TABLE sync_parent (
            store BLOB NOT NULL, number INTEGER NOT NULL, version TEXT NOT NULL, parent TEXT NOT NULL,
            PRIMARY KEY (store, number, version, parent)
        ) WITHOUT ROWID;
        CREATE INDEX sync_parent_by_parent ON sync_parent(store, number, parent);
        """

    /// The last number given to an entry (0 before the first).
    private static func lastEntryNumber(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'entry'") ?? 0
    }

    /// Notes, until the journal first syncs, the identity (``FileIdentity/claim``) of the file
    /// that is about to give entries numbers: a journal copied before it ever synced shares its
    /// store's UUID, and so its entries' URIs, with the journal it was copied from, which may
    /// give the same numbers to entries of its own. The numbers given after the file's identity
    /// first changed are the copy's own, and its first sync names them by its device.
    /// Called when the store is made, before each write that adds entries, and by the first sync.
    static func noteFile(_ claim: String, in db: Database) throws {
        guard !claim.isEmpty, try !isStarted(in: db) else { return }
        let kept = try info(Key.unsyncedClaim, in: db)
        guard kept != claim else { return }
        if kept != nil, try info(Key.copiedThrough, in: db) == nil {
            try setInfo(Key.copiedThrough, String(try lastEntryNumber(in: db)), in: db)
        }
        try setInfo(Key.unsyncedClaim, claim, in: db)
    }

    /// The keys of `store_info` sync keeps.
    enum Key {
        /// The folder of the last sync, and whether the journal was encrypted then.
        static let folder = "sync_folder"
        static let encrypted = "sync_encrypted"
        /// This journal's device in the folder, and the identity (device and inode) of the file
        /// it was given to: a copy of the file is another device.
        static let device = "sync_device"
        static let claim = "sync_claim"
        /// The device's clock (``SyncClock``), and the number of its next file.
        static let clock = "sync_clock"
        static let nextFile = "sync_next_file"
        /// The last entry number given before the first sync (or before the journal was copied,
        /// when it was copied before it: ``copiedThrough``), and whether the journal is a copy
        /// (its file found elsewhere): a copy names the entries it made after that number by its
        /// device, as the journal it was copied from may have made entries of the same numbers
        /// since.
        static let firstSyncedThrough = "sync_first_through"
        static let namesByDevice = "sync_names_by_device"
        /// Before the first sync (``noteFile(_:in:)``): the identity of the file that last gave
        /// entries numbers, and the last number given before a file of another identity gave
        /// one (the journal was copied, moved or converted then).
        static let unsyncedClaim = "sync_unsynced_claim"
        static let copiedThrough = "sync_copied_through"
        /// An encrypted journal's copy of each device's key, once unwrapped, under this prefix
        /// and the device's UUID: `<the key file's UUID>:<base64>`, in the journal's encrypted
        /// store.
        static let deviceKeyPrefix = "sync_key:"
        /// When a device was forgotten here (``SyncLedger/forgotten(in:)``), under this prefix and
        /// the device's UUID: milliseconds since 1970, by this journal's clock.
        static let forgottenPrefix = "sync_forgotten:"
    }

    // MARK: The device and its clock

    /// A value of `store_info`.
    static func info(_ key: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = ?", arguments: [key])
    }

    static func setInfo(_ key: String, _ value: String, in db: Database) throws {
        try db.execute(
            sql:
                "INSERT INTO store_info (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }

    /// The device keys kept (``Key/deviceKeyPrefix``), by device.
    static func keptKeys(in db: Database) throws -> [UUID: String] {
        try infoByDevice(Key.deviceKeyPrefix, in: db)
    }

    /// The values of `store_info` kept under `prefix` and a device's UUID, by device.
    static func infoByDevice(_ prefix: String, in db: Database) throws -> [UUID: String] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT key, value FROM store_info WHERE substr(key, 1, length(?1)) = ?1", arguments: [prefix])
        var values: [UUID: String] = [:]
        for row in rows {
            let key: String = row[0]
            if let device = UUID(uuidString: String(key.dropFirst(prefix.count))) { values[device] = row[1] }
        }
        return values
    }

    // MARK: What changed here

    /// The entries changed since sync last looked, in number order.
    static func pending(in db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT n FROM sync_pending ORDER BY n")
    }

    static func pendingCount(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM sync_pending) + (SELECT count(*) FROM sync_outbox)")
            ?? 0
    }

    /// Makes every entry pending, each to be sent as a version of its own at the next sync, even
    /// one whose state sync sent or took in before.
    static func sendEverythingAgain(in db: Database) throws {
        try db.execute(
            sql: """
                UPDATE sync_entry SET digest = NULL WHERE n IS NOT NULL;
                INSERT OR IGNORE INTO sync_pending (n) SELECT n FROM entry;
                """)
    }

    /// Makes entry `n` pending, to be sent as a version of its own at the next sync, made from
    /// the versions it holds.
    static func sendAgain(_ n: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE sync_entry SET digest = NULL WHERE n = ?", arguments: [n])
        try db.execute(sql: "INSERT OR IGNORE INTO sync_pending (n) VALUES (?)", arguments: [n])
    }

    static func clearPending(in db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_pending")
    }

    /// The device a sync through `folder` sends as, when it has nothing to send and nothing of
    /// the ledger to set: the ledger made as this version makes it, in the file (`claim`) that
    /// took the device, last synced through `folder` as plain or `encrypted` as now, with no
    /// entry pending and no line waiting for the folder. Nil when the sync must write.
    static func unchangedDevice(claim: String, folder: String, encrypted: Bool, in db: Database) throws -> UUID? {
        guard try isStarted(in: db), try db.tableExists("sync_compactable"),
            try db.triggerExists("sync_state_tag_changed"), try info(Key.claim, in: db) == claim,
            try info(Key.folder, in: db) == folder, try info(Key.encrypted, in: db) == (encrypted ? "1" : "0"),
            try pendingCount(in: db) == 0
        else { return nil }
        return try info(Key.device, in: db).flatMap(UUID.init(uuidString:))
    }

    /// Entry `n`'s state as sync carries it; nil when there is no such entry.
    static func state(of n: Int64, in db: Database) throws -> SyncedState? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT date, CAST(text AS BLOB), starred FROM entry WHERE n = ?"),
                arguments: [n])
        else { return nil }
        let tags = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT name, written FROM tag WHERE entry = ? AND given = 1"), arguments: [n]
        ).map { Tag(name: $0[0], written: $0[1]) }
        return SyncedState(date: row[0], text: (row[1] as ExactText).string, tags: tags, starred: row[2])
    }

    // MARK: Entries and versions

    /// What sync holds of an entry.
    struct Held: Sendable {
        let uri: String
        let n: Int64?
        /// The version the entry is, and the other heads merged into it.
        let head: String
        var merged: [String] = []
        let digest: Data?
    }

    private static func held(_ row: Row, uri: String) -> Held {
        let merged = (row[2] as String?).map { $0.split(separator: " ").map(String.init) } ?? []
        return Held(uri: uri, n: row[0], head: row[1], merged: merged, digest: row[3])
    }

    static func held(uri: String, in db: Database) throws -> Held? {
        let key = try key(uri)
        return try Row.fetchOne(
            db.cachedStatement(sql: "SELECT n, head, merged, digest FROM sync_entry WHERE store = ? AND number = ?"),
            arguments: [key.store, key.number]
        ).map { held($0, uri: uri) }
    }

    static func held(n: Int64, in db: Database) throws -> Held? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT n, head, merged, digest, store, number FROM sync_entry WHERE n = ?"),
                arguments: [n])
        else { return nil }
        return held(row, uri: try key(row, at: 4).uri)
    }

    static func hold(_ held: Held, in db: Database) throws {
        let key = try key(held.uri)
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_entry (store, number, n, head, merged, digest) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(store, number) DO UPDATE SET
                    n = excluded.n, head = excluded.head, merged = excluded.merged, digest = excluded.digest
                """
        ).run(in: db) {
            $0.bind(1, key.storeID)
            $0.bind(2, key.number)
            $0.bind(3, held.n)
            $0.bind(4, text: held.head)
            $0.bind(5, text: held.merged.isEmpty ? nil : held.merged.joined(separator: " "))
            $0.bind(6, held.digest)
        }
    }

    /// Whether no version of any entry is known (a journal new to its folder).
    static func holdsNoVersion(in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM sync_version)") ?? false
    }

    /// How many versions of `uri` are known, and whether `version` is one of them.
    static func versions(
        of uri: String, including version: String, in db: Database
    ) throws -> (count: Int, includes: Bool) {
        let key = try key(uri)
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql:
                    "SELECT count(*), coalesce(max(version = ?), 0) FROM sync_version WHERE store = ? AND number = ?"),
            arguments: [version, key.store, key.number])
        return (row?[0] ?? 0, row?[1] ?? false)
    }

    /// Adds a version of `record.entry` with its state (`prepared`, when made ahead; left to
    /// the entry when it is `heldByEntry`: ``SyncLedger+HeldStates.swift``): a head unless a
    /// known version was made from it (none can be unless it `mayBeAParent`: a version made
    /// here, or one of an entry no version of which is known, is not); the versions it was made
    /// from are heads no more.
    static func add(
        _ record: SyncRecord, prepared: PreparedState? = nil, heldByEntry: Bool = false, mayBeAParent: Bool = true,
        in db: Database
    ) throws {
        let key = try key(record.entry)
        if mayBeAParent || !record.parents.isEmpty { try markCompactable(key, in: db) }
        let isParent =
            try mayBeAParent
            && Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT EXISTS (SELECT 1 FROM sync_parent WHERE store = ? AND number = ? AND parent = ?)"),
                arguments: [key.store, key.number, record.version]) ?? false
        let state = heldByEntry ? Self.heldByEntry : prepared?.json ?? record.state.map(json)
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO sync_version (store, number, version, head, state) VALUES (?, ?, ?, ?, ?)"
        ).run(in: db) {
            $0.bind(1, key.storeID)
            $0.bind(2, key.number)
            $0.bind(3, text: record.version)
            $0.bind(4, !isParent)
            $0.bind(5, text: state)
        }
        for parent in record.parents {
            try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO sync_parent (store, number, version, parent) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [key.store, key.number, record.version, parent])
            try db.cachedStatement(
                sql: "UPDATE sync_version SET head = 0 WHERE store = ? AND number = ? AND version = ?"
            ).execute(arguments: [key.store, key.number, parent])
        }
    }

    /// The heads of `uri`'s versions.
    static func heads(of uri: String, in db: Database) throws -> [(version: SyncVersion, state: SyncedState?)] {
        let key = try key(uri)
        return try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT version, state FROM sync_version WHERE store = ? AND number = ? AND head = 1"),
            arguments: [key.store, key.number]
        ).compactMap { row in
            guard let version = SyncVersion(row[0]) else { return nil }
            return (version, try state(row[1], of: uri, in: db))
        }
    }

    /// `state` as the ledger keeps it.
    static func json(of state: SyncedState) -> String {
        // Encoding a value of plain fields cannot fail.
        String(decoding: (try? stateEncoder.encode(state)) ?? Data(), as: UTF8.self)
    }

    private static let stateEncoder = JSONEncoder()

    /// The latest version of `uri` both `one` and `other` were made from (directly or not),
    /// with its state; nil when none is known with its state.
    static func commonAncestor(
        of uri: String, _ one: SyncVersion, _ other: SyncVersion, in db: Database
    ) throws -> SyncedState? {
        let key = try key(uri)
        let ancestors = try db.cachedStatement(
            sql: """
                WITH RECURSIVE ancestor(version) AS (
                    SELECT ?1 UNION SELECT p.parent FROM sync_parent p JOIN ancestor a
                    ON p.store = ?2 AND p.number = ?3 AND p.version = a.version
                )
                SELECT version FROM ancestor
                """)
        let ofOne = Set(try String.fetchAll(ancestors, arguments: [one.description, key.store, key.number]))
        let common = try String.fetchAll(ancestors, arguments: [other.description, key.store, key.number])
            .filter(ofOne.contains)
        guard let latest = common.compactMap(SyncVersion.init).max() else { return nil }
        return try state(
            try String.fetchOne(
                db.cachedStatement(
                    sql: "SELECT state FROM sync_version WHERE store = ? AND number = ? AND version = ?"),
                arguments: [key.store, key.number, latest.description]),
            of: uri, in: db)
    }

    /// The copies made of `entry`'s losing heads, each with the version it is a copy of.
    static func copies(of entry: String, in db: Database) throws -> [(copy: String, version: String)] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT copy, version FROM sync_copy WHERE entry = ?"), arguments: [entry]
        ).map { ($0[0], $0[1]) }
    }

    static func addCopy(_ copy: String, of entry: String, version: String, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_copy (copy, entry, version) VALUES (?, ?, ?)")
            .execute(arguments: [copy, entry, version])
    }

    /// Forgets a copy: no longer one made of a losing head (its head won or gained a successor,
    /// or a user changed the copy).
    static func removeCopy(_ copy: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_copy WHERE copy = ?").execute(arguments: [copy])
    }

    /// Forgets every copy made of `entry`'s losing heads: compaction removed them, once each copy
    /// was an entry of its own.
    static func removeCopies(of entry: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_copy WHERE entry = ?").execute(arguments: [entry])
    }

    /// Forgets everything of `uri`: a copy made here and unmade, which no device wrote a record of.
    static func forget(_ uri: String, in db: Database) throws {
        let key = try key(uri)
        for table in ["sync_entry", "sync_version", "sync_parent"] {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE store = ? AND number = ?")
                .execute(arguments: [key.store, key.number])
        }
    }

    // MARK: Checking

    /// The entries sync has no account of: neither held (sent or taken in) nor pending. Each is
    /// a change no sync would ever send.
    static func unaccounted(in db: Database) throws -> [Int64] {
        try Int64.fetchAll(
            db,
            sql: """
                SELECT n FROM entry WHERE n NOT IN (SELECT n FROM sync_entry WHERE n IS NOT NULL)
                AND n NOT IN (SELECT n FROM sync_pending) ORDER BY n
                """)
    }

    /// Calls `body` with each entry sync holds and does not know changed since: its number and
    /// the digest sync holds of it (the entry's number names no entry when it was deleted
    /// unseen).
    static func forEachHeld(in db: Database, _ body: (Int64, Data?) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT n, digest FROM sync_entry WHERE n IS NOT NULL AND n NOT IN (SELECT n FROM sync_pending)
                ORDER BY n
                """)
        while let row = try rows.next() { try body(row[0], row[1]) }
    }

    // MARK: The folder

    static func addToOutbox(_ line: SyncLine, in db: Database) throws {
        let json = String(decoding: try JSONEncoder().encode(line), as: UTF8.self)
        try db.cachedStatement(sql: "INSERT INTO sync_outbox (record) VALUES (?)").execute(arguments: [json])
    }

    /// The lines made here not yet in the folder, oldest first, with the last one's sequence.
    static func outbox(in db: Database) throws -> (lines: [SyncLine], through: Int64) {
        let rows = try Row.fetchAll(db, sql: "SELECT seq, record FROM sync_outbox ORDER BY seq")
        let lines = try rows.map { try JSONDecoder().decode(SyncLine.self, from: Data(($0[1] as String).utf8)) }
        return (lines, rows.last?[0] ?? 0)
    }

    static func removeFromOutbox(through seq: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_outbox WHERE seq <= ?", arguments: [seq])
    }

    /// How far `device`'s files were taken in.
    typealias Position = (file: Int, records: Int, bytes: Int)

    /// How far `device`'s files were taken in: the last file begun, its records and bytes taken.
    static func position(of device: UUID, in db: Database) throws -> Position {
        let row = try Row.fetchOne(
            db, sql: "SELECT file, records, bytes FROM sync_peer WHERE device = ?", arguments: [device.uuidString])
        return row.map { ($0[0], $0[1], $0[2]) } ?? (0, 0, 0)
    }

    /// Records how far `device`'s files were taken in, and the last version read from them
    /// (kept when `last` is nil).
    static func setPosition(of device: UUID, at position: Position, last: String?, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO sync_peer (device, file, records, bytes, last) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(device) DO UPDATE SET file = excluded.file, records = excluded.records,
                    bytes = excluded.bytes, last = coalesce(excluded.last, last)
                """,
            arguments: [device.uuidString, position.file, position.records, position.bytes, last])
    }

    /// The last version read from each other device's files.
    static func lastTaken(in db: Database) throws -> [UUID: SyncVersion] {
        var last: [UUID: SyncVersion] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT device, last FROM sync_peer WHERE last IS NOT NULL") {
            if let device = UUID(uuidString: row[0]), let version = SyncVersion(row[1]) { last[device] = version }
        }
        return last
    }

    /// Every other device the journal took records from, with its position.
    static func peers(in db: Database) throws -> [(device: UUID, position: Position)] {
        try Row.fetchAll(db, sql: "SELECT device, file, records, bytes FROM sync_peer ORDER BY device").compactMap {
            row in UUID(uuidString: row[0]).map { ($0, (row[1], row[2], row[3])) }
        }
    }
}
