import Foundation
import GRDB
import JournalKit

/// SQLite FTS5 as the users who care most would set it up for a journal, so that the benchmark
/// measures the engine and not a setup: a file of its own, the entries inserted oldest first so
/// that rowid order is date order (newest first is a backward walk of the index, no sort), the
/// text kept in the FTS5 table, the same tokenizer and prefix index as the `fts5` strategy, and
/// `optimize` after the build. A query is what a search shows: the count, then the newest 20
/// with their date and text.
public struct FTS5BestSetup {
    /// The SQLite file.
    public let url: URL

    /// The count of a query's matches (`:q`, an FTS5 expression).
    public static let countSQL = "SELECT count(*) FROM journal WHERE journal MATCH :q"
    /// The newest 20 matches with their date and text.
    public static let pageSQL = "SELECT rowid, date, text FROM journal WHERE journal MATCH :q ORDER BY rowid DESC LIMIT 20"

    /// Builds it at `url` (replacing a file there) from the entries of `journal`: seconds for
    /// the inserts and `optimize`, the file's bytes, and the bytes of the index alone (every
    /// table but the text), when SQLite can tell (its `dbstat` table).
    public static func build(
        from journal: Journal, at url: URL
    ) throws -> (setup: FTS5BestSetup, seconds: Double, bytes: Int, indexBytes: Int?) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let queue = try DatabaseQueue(path: url.path)
        let start = ContinuousClock.now
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [journal.directory.mainStoreURL.path])
            try db.inTransaction {
                try db.execute(
                    sql: """
                        CREATE VIRTUAL TABLE journal USING fts5(
                            text, date UNINDEXED, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3');
                        INSERT INTO journal (text, date) SELECT text, date FROM source.entry ORDER BY date, n;
                        INSERT INTO journal (journal) VALUES ('optimize');
                        """)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE source")
        }
        let seconds = secondsSince(start)
        let indexBytes = try? queue.read { db in
            try Int.fetchOne(
                db, sql: "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'journal%' AND name != 'journal_content'")
        }
        try queue.close()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        return (FTS5BestSetup(url: url), seconds, bytes, indexBytes ?? nil)
    }

    /// The median time, over `runs` after one untimed, of `query`'s count and newest 20 in this
    /// process; nil when the query has no words for FTS5.
    public func medianSeconds(of query: String, runs: Int, in queue: DatabaseQueue) throws -> Double? {
        guard let expression = try? SearchQuery(query).fts5Expression else { return nil }
        func answer() throws {
            try queue.read { db in
                _ = try Int.fetchOne(db, sql: Self.countSQL, arguments: ["q": expression])
                _ = try Row.fetchAll(db, sql: Self.pageSQL, arguments: ["q": expression])
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
