import GRDB

/// What the word-prefix strategies share: documents of the search store that satisfy one
/// condition per query word, counted and paged newest first, in one read transaction.
enum WordPrefixSearch {
    static func answer(
        conditions: [String], arguments: [any DatabaseValueConvertible], in stores: SearchContext, page: PageRequest
    ) throws(JournalError) -> StrategyAnswer {
        let matching = "FROM document WHERE " + conditions.joined(separator: " AND ")
        return try StoreDatabase.guarded(stores.search.url) {
            try stores.search.pool.read { db in
                let total = try Int.fetchOne(db, sql: "SELECT count(*) \(matching)", arguments: StatementArguments(arguments)) ?? 0
                let uris = try String.fetchAll(
                    db, sql: "SELECT uri \(matching) ORDER BY date DESC, id DESC LIMIT ? OFFSET ?",
                    arguments: StatementArguments(arguments + [page.sqlLimit, page.offset]))
                return StrategyAnswer(total: total, page: uris.compactMap(EntryID.init(uri:)))
            }
        }
    }
}
