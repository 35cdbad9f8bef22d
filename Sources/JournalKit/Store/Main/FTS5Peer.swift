import Foundation
import GRDB

/// SQLite FTS5 over the entries, set up as a user would: in the main store, the entry text as
/// written, `unicode61 remove_diacritics 2`, a prefix index, and triggers that keep it current.
/// It is the peer every other strategy is measured against, built the first time it is needed.
package enum FTS5Peer {
    static let table = "entry_fts"

    static func isBuilt(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?)", arguments: [table])
            ?? false
    }

    /// Builds the index unless it exists, `batchSize` entries at a time with progress, in one
    /// transaction; returns whether it built it (false: it was built already).
    @discardableResult
    package static func build(
        in main: MainStore, batchSize: Int = 5_000, progress: ProgressHandler?
    ) throws(JournalError) -> Bool {
        if try main.read({ db in try isBuilt(db) }) { return false }
        return try main.write { db -> Bool in
            guard try !isBuilt(db) else { return false }
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE entry_fts USING fts5(
                        text, content='entry', content_rowid='n',
                        tokenize='unicode61 remove_diacritics 2', prefix='1 2 3');
                    CREATE TRIGGER entry_fts_insert AFTER INSERT ON entry BEGIN
                        INSERT INTO entry_fts (rowid, text) VALUES (new.n, new.text);
                    END;
                    CREATE TRIGGER entry_fts_delete AFTER DELETE ON entry BEGIN
                        INSERT INTO entry_fts (entry_fts, rowid, text) VALUES ('delete', old.n, old.text);
                    END;
                    CREATE TRIGGER entry_fts_update AFTER UPDATE OF text ON entry BEGIN
                        INSERT INTO entry_fts (entry_fts, rowid, text) VALUES ('delete', old.n, old.text);
                        INSERT INTO entry_fts (rowid, text) VALUES (new.n, new.text);
                    END;
                    """)
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0
            var done = 0
            var after: Int64 = 0
            // The batch's last entry number comes from the entry table: on an external-content
            // table, max(rowid) of entry_fts would read the entry table's, not the index's.
            let batchEnd = try db.makeStatement(
                sql: "SELECT max(n) FROM (SELECT n FROM entry WHERE n > ? ORDER BY n LIMIT ?)")
            let insert = try db.makeStatement(
                sql: "INSERT INTO entry_fts (rowid, text) SELECT n, text FROM entry WHERE n > ? AND n <= ?")
            while let last = try Int64.fetchOne(batchEnd, arguments: [after, batchSize]) {
                try insert.execute(arguments: [after, last])
                done += db.changesCount
                after = last
                progress?(JournalProgress(phase: .indexing, done: done, total: total))
            }
            return true
        }
    }

    /// Removes the index and its triggers from a main store (a benchmark's copy of a journal
    /// that measured this peer, so that the copy's writes cost what a user's do).
    package static let dropSQL = """
        DROP TRIGGER IF EXISTS entry_fts_insert;
        DROP TRIGGER IF EXISTS entry_fts_delete;
        DROP TRIGGER IF EXISTS entry_fts_update;
        DROP TABLE IF EXISTS entry_fts;
        """

    /// Rebuilds the existing index from every entry.
    package static func rebuild(in main: MainStore) throws(JournalError) {
        try main.write { db in try db.execute(sql: "INSERT INTO entry_fts (entry_fts) VALUES ('rebuild')") }
    }

    static func isBuilt(in main: MainStore) throws(JournalError) -> Bool {
        try main.read { db in try isBuilt(db) }
    }

    /// What FTS5's own integrity check (index against the entries' text) reports, or nil when
    /// it passes. It writes nothing, though SQLite runs it as an insert.
    static func integrityProblem(in main: MainStore) -> String? {
        do {
            try main.pool.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO entry_fts (entry_fts, rank) VALUES ('integrity-check', 1)")
            }
            return nil
        } catch {
            return (error as? DatabaseError)?.message ?? "\(error)"
        }
    }

    /// The index's shadow tables (the text stays in `entry`), largest first, when SQLite can
    /// tell; nil too when the index is not built.
    static func tables(in main: MainStore) throws(JournalError) -> [StoreTableSize]? {
        guard try isBuilt(in: main) else { return nil }
        return try main.read { db in StoreTableSize.all(in: db) { $0.hasPrefix(table) } }
    }

    /// The bytes of the index's shadow tables, when SQLite can tell.
    package static func sizeBytes(in main: MainStore) -> Int? {
        (try? tables(in: main))??.reduce(0) { $0 + $1.bytes }
    }

    /// The peer's tables as an ``FTS5Query`` reads them: the FTS5 index over the main store's
    /// entries, `e` the entry row.
    static let schema = FTS5Query.Schema(table: table, rowid: "e.n", date: "e.date", starred: "e.starred", tags: "tag")

    /// The entries that meet `condition`, newest first, as FTS5 finds them: the exact total and
    /// the numbers of `page`. The index must be built.
    static func newestFirst(
        meeting condition: QueryCondition, page: PageRequest, in main: MainStore, cancellation: Cancellation?
    ) throws(JournalError) -> (total: Int, numbers: [Int64]) {
        let fts5 = FTS5Query(condition, schema: schema)
        let source = fts5.match == nil ? "entry e" : "\(table) f JOIN entry e ON e.n = f.rowid"
        let conditions = (fts5.match == nil ? "" : "\(table) MATCH ? AND ") + fts5.condition
        let arguments = StatementArguments((fts5.match.map { [$0.databaseValue] } ?? []) + fts5.arguments)
        let order = condition.dateOrder(table: "e.")
        return try main.read(cancellation: cancellation) { db in
            let total =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(source) WHERE \(conditions)", arguments: arguments)
                ?? 0
            let numbers = try Int64.fetchAll(
                db,
                sql: """
                    SELECT e.n FROM \(source) WHERE \(conditions)
                    ORDER BY \(order) \(page.sqlDirection), e.n \(page.sqlDirection) LIMIT ? OFFSET ?
                    """,
                arguments: arguments + [page.sqlLimit, page.offset])
            return (total, numbers)
        }
    }
}
