import Foundation
import GRDB
import Testing

@testable import JournalKit

/// A sync ledger as earlier versions kept it, keyed by URI text, is rewritten to entry keys
/// when the journal opens: every row kept, the held states' triggers made again, and the
/// journal syncs on with the others.
@Suite(.hangGuard) struct SyncLedgerEntryKeysTests {
    typealias TemporaryFolder = SyncTests.TemporaryFolder

    /// The tables keyed by entry as versions before entry keys made them.
    static let uriKeyedTables = """
        CREATE TABLE sync_entry (
            uri TEXT PRIMARY KEY NOT NULL, n INTEGER, head TEXT NOT NULL, merged TEXT, digest BLOB
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX sync_entry_by_n ON sync_entry(n) WHERE n IS NOT NULL;
        CREATE TABLE sync_version (
            uri TEXT NOT NULL, version TEXT NOT NULL, head INTEGER NOT NULL, state TEXT,
            PRIMARY KEY (uri, version)
        ) WITHOUT ROWID;
        CREATE TABLE sync_parent (
            uri TEXT NOT NULL, version TEXT NOT NULL, parent TEXT NOT NULL, PRIMARY KEY (uri, version, parent)
        ) WITHOUT ROWID;
        CREATE INDEX sync_parent_by_parent ON sync_parent(uri, parent);
        CREATE TABLE sync_floor (
            uri TEXT NOT NULL, device TEXT NOT NULL, version TEXT NOT NULL, PRIMARY KEY (uri, device)
        ) WITHOUT ROWID;
        CREATE TABLE sync_compactable (uri TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
        """

    static let keyedTables = ["sync_entry", "sync_version", "sync_parent", "sync_floor", "sync_compactable"]

    static let heldStateTriggers = [
        "sync_state_updated", "sync_state_deleted", "sync_state_tag_given", "sync_state_tag_taken",
        "sync_state_tag_changed",
    ]

    /// Every row of the tables keyed by entry, each as text with its entry's URI, by table.
    static func rows(_ journal: Journal) throws -> [String: [String]] {
        try journal.main.read { db in
            var rows: [String: [String]] = [:]
            for table in keyedTables {
                rows[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { row in
                    var fields = [try SyncLedger.key(row, at: 0).uri]
                    for column in row.columnNames.dropFirst(2) { fields.append("\(row[column] as DatabaseValue)") }
                    return fields.joined(separator: " | ")
                }.sorted()
            }
            return rows
        }
    }

    /// Rewrites `journal`'s ledger as versions before entry keys kept it (URIs for keys, no
    /// migration recorded), `uri` giving the text each entry's URI is written as, and closes it.
    static func keyByURIs(_ journal: TemporaryJournal, uri: (String) -> String = { $0 }) throws {
        try journal.journal.main.pool.write { db in
            var rows: [String: [Row]] = [:]
            for table in keyedTables { rows[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table)") }
            for trigger in heldStateTriggers { try db.execute(sql: "DROP TRIGGER \(trigger)") }
            for table in keyedTables { try db.execute(sql: "DROP TABLE \(table)") }
            try db.execute(sql: uriKeyedTables)
            for (table, rows) in rows {
                for row in rows {
                    let columns = ["uri"] + row.columnNames.dropFirst(2)
                    let values: [DatabaseValueConvertible?] =
                        [uri(try SyncLedger.key(row, at: 0).uri)] + row.databaseValues.dropFirst(2).map { $0 }
                    try db.execute(
                        sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                            + "(\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                        arguments: StatementArguments(values))
                }
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v6-sync-entry-keys'")
        }
        journal.close()
    }

    @Test func aLedgerKeyedByURIsKeepsEveryRowAndSyncsOn() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "draft 0"))
        let shared = try a.journal.add(NewEntry(text: "written on both"))
        let untouched = try a.journal.add(NewEntry(text: "taken in and left", tags: ["kept"], starred: true))
        let deleted = try a.journal.add(NewEntry(text: "deleted later"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        // Versions made from others, a conflict, a delete, and versions compaction removes.
        try a.journal.edit(shared.id, text: "written on both, by a")
        try b.journal.edit(shared.id, text: "written on both, by b")
        try a.journal.delete(deleted.id)
        let compacted = try SyncCompactionTests.edit(a, b, from: 1, rounds: 4).compacted
        #expect(compacted > 0)
        let before = try Self.rows(b.journal)
        #expect(before["sync_floor"]?.isEmpty == false && before["sync_parent"]?.isEmpty == false)
        let states = try SyncTests.versionStates(b.journal)
        #expect(states.values.contains { $0 == nil }, "a delete's version")

        try Self.keyByURIs(b)
        try b.reopen()
        #expect(try Self.rows(b.journal) == before)
        #expect(try SyncTests.versionStates(b.journal) == states)
        #expect(try b.journal.verify().isConsistent)

        // The entry taken in and left holds its version's state; its triggers write it out on
        // an edit, so the version keeps the state it had.
        let left = try #require(states.first { $0.key.hasPrefix(untouched.id.uri + " ") })
        try b.journal.edit(untouched.id, text: "taken in, then edited")
        #expect(try SyncTests.versionStates(b.journal)[left.key] == left.value)
        try a.journal.edit(try SyncTests.entry("draft 4", in: a.journal).id, text: "draft 5")
        for journal in [a, b, a] { _ = try journal.journal.sync() }
        #expect(try SyncTests.held(a.journal) == SyncTests.held(b.journal))
        #expect(try SyncTests.held(b.journal).map(\.text).contains("taken in, then edited"))
        for journal in [a, b] {
            try journal.expectConsistent()
            #expect(try journal.journal.verify().isConsistent)
        }
    }

    @Test func aURINotInItsWrittenFormStopsTheRewriteAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "one"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        try Self.keyByURIs(b) { $0.lowercased() }
        let opening = #expect(throws: JournalError.self) { try b.reopen() }
        #expect(
            opening?.description.contains("not an entry URI in its written form") == true,
            "\(String(describing: opening))")
        let columns = try DatabaseQueue(path: b.directory.mainStoreURL.path).read { db in
            try Row.fetchAll(db, sql: "PRAGMA table_info(sync_entry)").map { $0["name"] as String }
        }
        #expect(columns.first == "uri")
    }
}
