import Foundation
import GRDB

/// How the ledger's tables name an entry: not by its URI's text but by the two things the URI
/// says, its store's UUID (16 bytes) and its number. Every version, parent, floor and
/// compaction mark of an entry carries that key, and every entry sync knows has a row in
/// `sync_entry` and in `sync_version`, so the key's size decides much of the ledger's: a URI's
/// text is long and, its number being decimal, out of order (`…p10` before `…p9`); the pair is
/// short, in the order entries are numbered. (`Benchmarks/README.md`, "The sync ledger's keys",
/// has the figures.)
///
/// A key is only ever made from a URI in its one written form (``EntryID/uri``): records name
/// entries so (``SyncRecord/isWellFormed``), so two URIs never share a key. `sync_copy` keeps
/// URIs as text: it holds a row only while a conflict's copy stands.
///
/// Invariant: a ledger started by an earlier version, keyed by URIs, is rewritten to these keys
/// by the main store's migration (``keyEntriesByNumber(in:)``) before anything reads it.
extension SyncLedger {
    /// An entry as the ledger keys it.
    struct EntryKey: Hashable {
        let storeID: UUID
        let number: Int64

        /// The key of the entry `uri` names; nil when `uri` is not an entry URI in its written form.
        init?(uri: String) {
            guard let id = EntryID(writtenURI: uri) else { return nil }
            self.init(id)
        }

        init(_ id: EntryID) {
            (storeID, number) = (id.storeID, id.number)
        }

        /// The store as the tables hold it: its UUID's 16 bytes.
        var store: Data { storeID.withBytes { Data($0) } }

        /// The entry's URI.
        var uri: String { EntryID(storeID: storeID, number: number).uri }
    }

    /// The key of the entry `uri` names, which the ledger only ever holds in its written form.
    static func key(_ uri: String) throws -> EntryKey {
        guard let key = EntryKey(uri: uri) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISMATCH,
                message: "the sync ledger names \"\(uri)\", not an entry URI in its written form")
        }
        return key
    }

    /// The key a row holds in its columns `index` (the store) and `index + 1` (the number).
    static func key(_ row: Row, at index: Int) throws -> EntryKey {
        guard let store = (row[index] as Data?)?.withUnsafeBytes(UUID.init(bytes:)),
            let number = row[index + 1] as Int64?
        else {
            throw DatabaseError(
                resultCode: .SQLITE_CORRUPT, message: "the sync ledger holds an entry key that is not one")
        }
        return EntryKey(EntryID(storeID: store, number: number))
    }

    /// Rewrites a ledger an earlier version keyed by URIs (`uri` columns of text) to entry keys,
    /// and brings it up to date (``startCompaction(in:)``, ``startHeldStates(in:)``): the main
    /// store's migration, in its transaction. A URI that is not one in its written form (no
    /// version ever wrote one) stops it with an error, rather than merging or dropping rows.
    static func keyEntriesByNumber(in db: Database) throws {
        guard try isStarted(in: db),
            try Row.fetchAll(db, sql: "PRAGMA table_info(sync_entry)").contains(where: { $0["name"] == "uri" })
        else { return }
        let store = DatabaseFunction("sync_uri_store", argumentCount: 1, pure: true) { values in
            try key(String.fromDatabaseValue(values[0]) ?? "").store
        }
        let number = DatabaseFunction("sync_uri_number", argumentCount: 1, pure: true) { values in
            try key(String.fromDatabaseValue(values[0]) ?? "").number
        }
        db.add(function: store)
        db.add(function: number)
        defer {
            db.remove(function: store)
            db.remove(function: number)
        }
        let keyed = "sync_uri_store(uri), sync_uri_number(uri)"
        var tables = ["sync_entry", "sync_version", "sync_parent"]
        for optional in ["sync_floor", "sync_compactable"] where try db.tableExists(optional) {
            tables.append(optional)
        }
        try db.execute(
            sql: """
                DROP TRIGGER IF EXISTS sync_state_updated;
                DROP TRIGGER IF EXISTS sync_state_deleted;
                DROP TRIGGER IF EXISTS sync_state_tag_given;
                DROP TRIGGER IF EXISTS sync_state_tag_taken;
                DROP TRIGGER IF EXISTS sync_state_tag_changed;
                DROP INDEX IF EXISTS sync_entry_by_n;
                DROP INDEX IF EXISTS sync_parent_by_parent;
                """)
        for table in tables { try db.execute(sql: "ALTER TABLE \(table) RENAME TO uri_keyed_\(table)") }
        try db.execute(sql: entryTables)
        try startCompaction(in: db)
        try db.execute(
            sql: """
                INSERT INTO sync_entry (store, number, n, head, merged, digest)
                    SELECT \(keyed), n, head, merged, digest FROM uri_keyed_sync_entry;
                INSERT INTO sync_version (store, number, version, head, state)
                    SELECT \(keyed), version, head, state FROM uri_keyed_sync_version;
                INSERT INTO sync_parent (store, number, version, parent)
                    SELECT \(keyed), version, parent FROM uri_keyed_sync_parent;
                """)
        if tables.contains("sync_floor") {
            try db.execute(
                sql: """
                    INSERT INTO sync_floor (store, number, device, version)
                        SELECT \(keyed), device, version FROM uri_keyed_sync_floor;
                    INSERT INTO sync_compactable (store, number) SELECT \(keyed) FROM uri_keyed_sync_compactable;
                    """)
        }
        for table in tables { try db.execute(sql: "DROP TABLE uri_keyed_\(table)") }
        try startHeldStates(in: db)
    }
}
