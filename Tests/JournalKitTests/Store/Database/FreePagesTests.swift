import Foundation
import GRDB
import Testing

@testable import JournalKit

@Suite struct FreePagesTests {
    /// Leaves about `count` pages of the store free: a table of that many page-sized rows, made
    /// and dropped.
    private func freePages(_ count: Int, in pool: StorePool) throws {
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE ballast (data BLOB NOT NULL)")
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO ballast SELECT zeroblob(4000) FROM n
                    """, arguments: [count])
        }
        try pool.write { try $0.execute(sql: "DROP TABLE ballast") }
    }

    /// Rows removed from a search store leave pages free; a catch-up gives them back once they
    /// are over a tenth of the file, and the file shrinks when its log is copied into it.
    @Test(arguments: [nil, "correct horse"])
    func aCatchUpGivesFreePagesBack(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        try store.journal.add(NewEntry(text: "one entry"))
        let pool = store.journal.search.pool
        #expect(try pool.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") } == 2)
        try freePages(2000, in: pool)
        let (freed, _) = try pool.read(FreePages.count(in:))
        #expect(freed >= 2000)

        try store.journal.add(NewEntry(text: "another entry"))
        let (free, pages) = try pool.read(FreePages.count(in:))
        #expect(free <= FreePages.slackPages || free * 10 <= pages, "\(free) of \(pages) pages free")
        store.close()
        let bytes = try #require(
            try FileManager.default.attributesOfItem(atPath: store.directory.searchStoreURL.path)[.size] as? Int)
        #expect(bytes < 2000 * 4096, "the file kept \(bytes) bytes")
        let reopened = try store.reopen()
        #expect(try reopened.search("entry").total == 2)
        #expect(try reopened.verify().isConsistent)
    }

    /// Free pages under a tenth of the file, or fewer than the slack, stay for later writes.
    @Test func aFewFreePagesStay() throws {
        let store = try TemporaryJournal()
        let pool = store.journal.search.pool
        try freePages(100, in: pool)
        let before = try pool.read(FreePages.count(in:))
        try pool.write(FreePages.giveBack(in:))
        #expect(try pool.read(FreePages.count(in:)) == before)
    }
}
