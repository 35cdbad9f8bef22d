import Foundation
import GRDB
import JournalKit

/// SQLite FTS5 as the users who care most would set it up for a journal, so that the benchmark
/// measures the engine and not a setup: a file of its own, the entries inserted oldest first so
/// that rowid order is date order (newest first is a backward walk of the index, no sort), the text
/// kept in the FTS5 table, each entry's tags in an indexed table beside it, the same tokenizer and
/// prefix index as the `fts5` strategy, and `optimize` after the build. A query is what a search
/// shows: the count, then the newest 20 with their date and text.
public struct FTS5BestSetup {
    /// The SQLite file.
    public let url: URL

    /// Its tables as an ``FTS5Query`` reads them: the FTS5 table `journal` (text, date, starred),
    /// and each entry's tags in `tag`, by the FTS5 rowid.
    ///
    /// The rowid is written `+journal.rowid`, as FTS5's best users write it beside a `MATCH`:
    /// given `rowid IN (…)`, FTS5 evaluates the whole `MATCH` once per listed row, and the unary
    /// `+` keeps the list from FTS5.
    package static let schema = FTS5Query.Schema(
        table: "journal", rowid: "+journal.rowid", date: "journal.date", starred: "journal.starred", tags: "tag")

    /// The count of a plain `MATCH` query's matches (`:q`), for a `sqlite3` process.
    public static let countSQL = "SELECT count(*) FROM journal WHERE journal MATCH :q"
    /// The newest 20 matches of a plain `MATCH` query with their date and text.
    public static let pageSQL =
        "SELECT rowid, date, text FROM journal WHERE journal MATCH :q ORDER BY rowid DESC LIMIT 20"

    /// The count of a query's matches, and its newest 20 with their date and text, the match
    /// expression (if any) bound first and then the query's arguments.
    package static func statements(for query: FTS5Query, ranked: Bool = false) -> (count: String, page: String) {
        let conditions = (query.match == nil ? "" : "journal MATCH ? AND ") + query.condition
        // Ranked, FTS5 scores every match with its BM25 and sorts them: its own way to the
        // most relevant 20.
        let order = ranked && query.match != nil ? "rank" : "rowid DESC"
        return (
            "SELECT count(*) FROM journal WHERE \(conditions)",
            "SELECT rowid, date, text FROM journal WHERE \(conditions) ORDER BY \(order) LIMIT 20"
        )
    }

    /// The FTS5 query of `text` for this setup, planned as the word-prefix strategies plan it;
    /// nil when the query has nothing to search for.
    package static func query(_ text: String) -> FTS5Query? {
        guard let plan = try? SearchPlan(SearchQuery(text), family: .wordPrefix, earliestDate: nil) else { return nil }
        return FTS5Query(plan.condition, schema: schema)
    }

    /// Builds it at `url` (replacing a file there) from the entries of `journal`: seconds for
    /// the inserts and `optimize`, the file's bytes, and the bytes of the index alone (every
    /// table but the text) in all and by table, when SQLite can tell (its `dbstat` table).
    public static func build(
        from journal: Journal, at url: URL
    ) throws -> (setup: FTS5BestSetup, seconds: Double, bytes: Int, indexBytes: Int?, indexTables: [StoreTableSize]?) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        let queue = try DatabaseQueue(path: url.path)
        let start = ContinuousClock.now
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [journal.directory.mainStoreURL.path])
            try db.inTransaction {
                try db.execute(
                    sql: """
                        CREATE VIRTUAL TABLE journal USING fts5(
                            text, date UNINDEXED, starred UNINDEXED, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3');
                        CREATE TEMP TABLE numbering AS SELECT n, row_number() OVER (ORDER BY date, n) AS rowid FROM source.entry;
                        INSERT INTO journal (rowid, text, date, starred)
                            SELECT numbering.rowid, text, date, starred FROM source.entry JOIN numbering USING (n) ORDER BY numbering.rowid;
                        INSERT INTO journal (journal) VALUES ('optimize');
                        CREATE TABLE tag (entry INTEGER NOT NULL, name TEXT NOT NULL);
                        INSERT INTO tag SELECT DISTINCT numbering.rowid, name FROM source.tag JOIN numbering ON numbering.n = tag.entry;
                        CREATE INDEX tag_by_name ON tag (name, entry);
                        DROP TABLE numbering;
                        """)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE source")
        }
        let seconds = secondsSince(start)
        let indexTables = try queue.read { db in
            StoreTableSize.all(in: db) { $0.hasPrefix("journal") && $0 != "journal_content" }
        }
        try queue.close()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        return (
            FTS5BestSetup(url: url), seconds, bytes, indexTables.map { $0.reduce(0) { $0 + $1.bytes } }, indexTables
        )
    }

    /// The median time, over `runs` after one untimed, of `query`'s count and newest 20 in this
    /// process; nil when the query has nothing to search for.
    public func medianSeconds(of query: String, runs: Int, in queue: DatabaseQueue) throws -> Double? {
        guard let fts5 = Self.query(query) else { return nil }
        let (count, page) = Self.statements(for: fts5)
        let arguments = StatementArguments((fts5.match.map { [$0.databaseValue] } ?? []) + fts5.arguments)
        func answer() throws {
            try queue.read { db in
                _ = try Int.fetchOne(db, sql: count, arguments: arguments)
                _ = try Row.fetchAll(db, sql: page, arguments: arguments)
            }
        }
        try answer()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try answer()
            times.append(secondsSince(start))
        }
        return LatencySummary(times).median
    }
}
