import Foundation
import GRDB

/// What the substring strategies share: the needle, and one scan of the main store that
/// yields both the exact total and the newest-first page.
enum SubstringSearch {
    /// The query folded as the strategy folds; a query that folds to nothing is a usage error.
    static func needle(_ query: SearchQuery, fold: (String) -> String, strategy: String) throws(JournalError) -> String {
        let needle = fold(query.text)
        guard !needle.isEmpty else {
            throw .usage("the query \"\(query.text)\" is empty once folded for \(strategy)")
        }
        return needle
    }

    /// Entries that pass the search's filter and whose row satisfies the SQL `condition`, newest
    /// first. `prepare` and `finish`
    /// run on the reading connection before and after (to add and remove a per-query function).
    static func answer(
        where condition: String, arguments: StatementArguments, in stores: SearchContext, page: PageRequest,
        prepare: (Database) -> Void = { _ in }, finish: (Database) -> Void = { _ in }
    ) throws(JournalError) -> StrategyAnswer {
        let (sql, allArguments) = pageQuery(where: condition, arguments: arguments, filter: stores.filter)
        return try stores.readMain { db in
            prepare(db)
            defer { finish(db) }
            let rows = try Row.fetchAll(db, sql: sql, arguments: allArguments + [page.sqlLimit, page.offset])
            let total: Int
            if let first = rows.first {
                total = first[1]
            } else if page.offset == 0 {
                total = 0
            } else {
                total =
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql))", arguments: allArguments + [-1, 0]) ?? 0
            }
            return StrategyAnswer(total: total, page: rows.map { EntryID(storeID: stores.main.storeID, number: $0[0]) })
        }
    }

    /// The query for a page (its `LIMIT ? OFFSET ?` still to bind) of the entries that pass
    /// `filter` and satisfy `condition`, with their count. The filter's condition comes first: a
    /// date range then reads only its rows, through the date index.
    static func pageQuery(
        where condition: String, arguments: StatementArguments, filter: EntryFilter
    ) -> (sql: String, arguments: StatementArguments) {
        let (filterCondition, filterArguments) = filter.sqlCondition()
        return (
            "SELECT n, count(*) OVER () FROM entry WHERE \(filterCondition) AND \(condition) ORDER BY \(filter.dateOrder()) DESC, n DESC LIMIT ? OFFSET ?",
            filterArguments + arguments
        )
    }

    /// A needle as bytes, for `instr` on blobs: byte search on UTF-8 is code-point search.
    static func bytes(_ needle: String) -> Data { Data(needle.utf8) }
}
