import GRDB

/// What the word-prefix strategies share: for each query word, the union of the postings of
/// the tokens it starts, or of its prefix key (each strategy finds them its own way); the
/// intersection across words; then its size and the requested page, newest first, in one
/// read transaction.
enum WordPrefixSearch {
    /// `postingsOf` gives, for a query word, whose postings hold its entries.
    static func answer(
        words: [String], in stores: SearchContext, page: PageRequest,
        postingsOf: (String, Database) throws -> (segments: PostingSegments, owners: [Int64])
    ) throws(JournalError) -> StrategyAnswer {
        // The entries the filter lets through, from the main store (the search store knows no
        // tags or stars), as the set every word's entries are intersected with.
        let allowed: DocumentSet? =
            stores.filter.isEmpty
            ? nil
            : try stores.readMain { db in
                try stores.filter.passing(in: db, maximum: Int64.fetchOne(db, sql: "SELECT max(n) FROM entry") ?? 0)
            }
        if let allowed, allowed.isEmpty { return StrategyAnswer(total: 0, page: []) }
        return try stores.readSearch { db in
            let maximum = try Int64.fetchOne(db, sql: "SELECT max(id) FROM document") ?? 0
            var matching = allowed
            for word in words {
                var entries = DocumentSet(maximum: maximum)
                let (segments, owners) = try postingsOf(word, db)
                for owner in owners { try segments.unite(owner: owner, into: &entries, in: db) }
                if matching == nil { matching = entries } else { matching!.formIntersection(entries) }
                if matching!.isEmpty { return StrategyAnswer(total: 0, page: []) }
            }
            guard let matching else { return StrategyAnswer(total: 0, page: []) }
            return try NewestFirst.page(of: matching, maximum: maximum, page: page, in: db)
        }
    }
}
