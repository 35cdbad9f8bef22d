import GRDB

/// What the word-prefix strategies share: for each query word, the union of the postings of
/// the tokens it starts (which tokens, each strategy finds its own way); the intersection
/// across words; then its size and the requested page, newest first, in one read transaction.
enum WordPrefixSearch {
    /// `tokensOf` gives, for a query word, the ids of the tokens that start with it.
    static func answer(
        words: [String], in stores: SearchContext, page: PageRequest,
        tokensOf: (String, Database) throws -> [Int64]
    ) throws(JournalError) -> StrategyAnswer {
        try StoreDatabase.guarded(stores.search.url) {
            try stores.search.pool.read { db in
                let maximum = try Int64.fetchOne(db, sql: "SELECT max(id) FROM document") ?? 0
                var matching: DocumentSet?
                for word in words {
                    var entries = DocumentSet(maximum: maximum)
                    for token in try tokensOf(word, db) {
                        try PostingSegments.unite(token: token, into: &entries, in: db)
                    }
                    if matching == nil { matching = entries } else { matching!.formIntersection(entries) }
                    if matching!.isEmpty { return StrategyAnswer(total: 0, page: []) }
                }
                guard let matching else { return StrategyAnswer(total: 0, page: []) }
                return try NewestFirst.page(of: matching, maximum: maximum, page: page, in: db)
            }
        }
    }
}
