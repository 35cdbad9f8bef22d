import Foundation
import GRDB
import Testing

@testable import JournalKit

/// The substring strategies scan the main store; a restriction's cheap condition goes first, so
/// that SQLite reads only the entries that pass through an index, never the whole table.
@Suite struct TextMatchTests {
    private func plan(_ filter: EntryFilter) throws -> String {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "one"))
        let restriction = try store.journal.plan(SearchQuery(filter: filter), family: .substring).restriction
        let (sql, arguments, _) = MainStore.pageQuery(matching: .canonical("x"), restriction: restriction)
        return try store.journal.main.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments + [20, 0]).map {
                $0["detail"] as String
            }
            .joined(separator: "\n")
        }
    }

    @Test func aMonthIsReadThroughTheDateIndex() throws {
        let may = try DatePhrase("may 2024", timeZone: .gmt)
        let plan = try plan(try EntryFilter(from: may.start, until: may.end))
        #expect(plan.contains("USING INDEX entry_by_date (date>? AND date<?)"), "\(plan)")
        #expect(!plan.contains("SCAN entry"), "\(plan)")
    }

    @Test func starredEntriesAreReadThroughTheirOwnIndex() throws {
        let plan = try plan(try EntryFilter(starred: true))
        #expect(plan.contains("USING INDEX entry_starred"), "\(plan)")
    }

    @Test func withoutAFilterEveryEntryIsRead() throws {
        // The exact total needs every row: the whole table, the cost a date filter cuts down.
        let plan = try plan(.none)
        #expect(plan.contains("SCAN entry\n") || plan.hasSuffix("SCAN entry"), "\(plan)")
    }
}
