import Foundation
import GRDB
import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct JournalVerifierTests {
    private func journal(entries: Int = 40) throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        for entry in SyntheticJournal(count: entries, seed: 12) { try store.journal.add(entry) }
        return store
    }

    @Test func findsNothingWrongInAConsistentJournal() throws {
        let store = try journal()
        try store.journal.delete(EntryID(storeID: store.journal.storeID, number: 3))
        try store.journal.edit(EntryID(storeID: store.journal.storeID, number: 5), text: "Crème brûlée at the 東京 café")
        let report = try store.journal.verify()
        #expect(report.isConsistent, "\(report.problems)")
        #expect(report.entries == 39)
    }

    @Test(arguments: [
        ("main", "UPDATE entry SET canonical = 'wrong' WHERE n = 4", "canonical text"),
        ("search", "DELETE FROM posting WHERE id = (SELECT min(id) FROM posting)", "postings of tokens"),
        ("search", "UPDATE posting SET positions = x'' WHERE id = (SELECT min(id) FROM posting)", "postings of tokens"),
        (
            "search", "UPDATE posting SET positions = x'017F' || positions WHERE id = (SELECT max(id) FROM posting)",
            "postings of tokens"
        ),
        (
            "search", "DELETE FROM prefix_posting WHERE id = (SELECT max(id) FROM prefix_posting)",
            "postings of prefix keys"
        ),
        (
            "search",
            "DROP VIEW document_uri; CREATE VIEW document_uri (id, uri) AS SELECT id, 'x-journal://elsewhere/' || id FROM document",
            "names it"
        ),
        ("search", "INSERT INTO document (id, date, tokens) VALUES (5000, 0, x'')", "doesn't have"),
        ("search", "DELETE FROM document WHERE id = 11", "not in the search store"),
        ("search", "UPDATE token SET text = 'zzzz' WHERE id = (SELECT min(id) FROM token)", "tokens are not tokens(e)"),
        (
            "search", "UPDATE token SET id = (SELECT min(id) FROM token) WHERE id = (SELECT max(id) FROM token)",
            "the id of another"
        ),
        (
            "search", "DELETE FROM token_added WHERE id = (SELECT max(id) FROM token_added)",
            "added since the prefix table's file lack"
        ),
        ("search", "UPDATE document SET date = date + 1 WHERE id = 7", "another date"),
        ("search", "UPDATE document SET length = length + 1 WHERE id = 6", "words in it"),
        ("search", "DELETE FROM date_bucket WHERE day = (SELECT min(day) FROM date_bucket)", "documents by day"),
        // A run of more numbers than any document can have.
        (
            "search",
            "UPDATE date_bucket SET runs = x'02ffffffffffffffff7f' WHERE day = (SELECT min(day) FROM date_bucket)",
            "documents by day"
        ),
        ("search", "UPDATE document_length SET lengths = zeroblob(16384) WHERE block = 0", "blocks of lengths"),
    ])
    func reportsDamageAndReindexRepairsIt(store target: String, damage: String, expected: String) throws {
        let store = try journal()
        let pool = target == "main" ? store.journal.main.pool : store.journal.search.pool
        try pool.write { try $0.execute(sql: damage) }
        let report = try store.journal.verify()
        #expect(!report.isConsistent)
        #expect(report.problems.contains { $0.contains(expected) }, "\(report.problems)")
        try store.journal.reindex()
        let repaired = try store.journal.verify()
        #expect(repaired.isConsistent, "\(repaired.problems)")
        try store.expectConsistent()
    }

    /// A day whose documents are out of the order of their dates (which searches list them in)
    /// is reported, and a reindex puts it in order.
    @Test func findsADayOutOfOrder() throws {
        let store = try journal()
        let day = JournalDate(microseconds: 20_000 * DateBuckets.microsecondsPerDay)
        for hour in [9, 12, 18] {
            try store.journal.add(
                NewEntry(
                    date: JournalDate(microseconds: day.microseconds + Int64(hour) * 3_600_000_000), text: "at \(hour)")
            )
        }
        try store.journal.search.pool.write { db in
            let runs = try #require(try Data.fetchOne(db, sql: "SELECT runs FROM date_bucket WHERE day = 20000"))
            var numbers: [Int64] = []
            DateBuckets.forEachRun(in: runs) { numbers += $0 }
            #expect(numbers.count == 3)
            try db.execute(
                sql: "UPDATE date_bucket SET runs = ? WHERE day = 20000",
                arguments: [DateBuckets.encode(numbers.reversed())])
        }
        let report = try store.journal.verify()
        #expect(report.problems.contains { $0.contains("not in the order of their dates") }, "\(report.problems)")
        #expect(report.problems.count == 1, "\(report.problems)")
        try store.journal.reindex()
        #expect(try store.journal.verify().isConsistent)
    }

    /// A damaged page of an index no other check reads (the entries by date) is found and
    /// reported with the store it is in, and the checks that would read it are not run.
    @Test func findsADamagedPageOfAnIndex() throws {
        let store = try journal(entries: 400)
        let page = try #require(
            try store.journal.main.pool.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT pageno FROM dbstat WHERE name = 'entry_by_date' AND pagetype = 'leaf' LIMIT 1")
            })
        store.close()
        let url = store.directory.mainStoreURL
        var bytes = try Data(contentsOf: url)
        // The page's type byte: no B-tree page has type 0.
        bytes[(page - 1) * 4096] = 0
        try bytes.write(to: url)
        let report = try store.reopen().verify()
        #expect(report.problems.first?.hasPrefix("journal.sqlite: Page \(page): ") == true, "\(report.problems)")
        #expect(!report.isConsistent && report.entries == 0 && report.entriesDamaged)
    }

    @Test func checksTheFTS5PeerWhereBuilt() throws {
        let store = try journal()
        _ = try store.journal.search("the", strategy: SearchStrategies[.fts5])
        #expect(try store.journal.verify().isConsistent)
        // Changing a text behind the triggers' back leaves the FTS5 index describing the old one.
        try store.journal.main.pool.write { db in
            try db.execute(sql: "DROP TRIGGER entry_fts_update")
            try db.execute(sql: "UPDATE entry SET text = 'something else entirely' WHERE n = 2")
        }
        let report = try store.journal.verify()
        #expect(report.problems.contains { $0.contains("FTS5") }, "\(report.problems)")
        try store.journal.reindex()
        #expect(try store.journal.verify().isConsistent)
    }
}
