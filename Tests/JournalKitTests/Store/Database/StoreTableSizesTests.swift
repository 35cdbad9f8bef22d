import Foundation
import GRDB
import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct StoreTableSizesTests {
    /// Each table's bytes are its pages' bytes as `dbstat` lists them page by page: the
    /// aggregate rows' page counts times the page size, not their byte sums (which wrap at
    /// 4 GiB in the SQLite this links).
    @Test func eachTablesBytesAreItsPagesBytes() throws {
        let store = try TemporaryJournal()
        for entry in SyntheticJournal(count: 300, seed: 71) { try store.journal.add(entry) }
        try store.journal.search.pool.read { db in
            let sizes = try #require(StoreTableSize.all(in: db))
            let byPage = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, sum(pgsize) FROM dbstat GROUP BY name").map {
                    ($0[0] as String, $0[1] as Int)
                })
            #expect(sizes.count == byPage.count)
            for size in sizes { #expect(size.bytes == byPage[size.name], "\(size.name)") }
            #expect(sizes.first { $0.name == "posting" }.map { $0.bytes > 4_096 } == true)
        }
    }
}
