import GRDB

/// What the word-prefix strategies share: for each query word, the union of the postings of
/// the tokens it starts, or of its prefix key (each strategy finds them its own way); the
/// intersection across words; then its size and the requested page, newest first, in one
/// read transaction.
///
/// A filter goes first and makes the work smaller: the entries it lets through bound which
/// posting segments are read at all. Dates come from the search store's day buckets (a few runs
/// of numbers a day); tags and stars from the main store, which alone knows them.
enum WordPrefixSearch {
    /// `postingsOf` gives, for a query word, whose postings hold its entries.
    static func answer(
        words: [String], in stores: SearchContext, page: PageRequest,
        postingsOf: (String, Database) throws -> (segments: PostingSegments, owners: [Int64])
    ) throws(JournalError) -> StrategyAnswer {
        let filter = stores.filter
        let fromMain: DocumentSet? =
            filter.tags.isEmpty && !filter.starred
            ? nil
            : try stores.readMain { db in
                try filter.passing(in: db, maximum: Int64.fetchOne(db, sql: "SELECT max(n) FROM entry") ?? 0)
            }
        if let fromMain, fromMain.isEmpty { return StrategyAnswer(total: 0, page: []) }
        return try stores.readSearch { db in
            let maximum = try Int64.fetchOne(db, sql: "SELECT max(id) FROM document") ?? 0
            var allowed = fromMain
            if fromMain == nil, filter.from != nil || filter.until != nil {
                allowed = try DateBuckets.documents(
                    from: filter.from?.microseconds, until: filter.until?.microseconds, maximum: maximum, in: db)
            }
            let window = allowed?.bounds
            if allowed != nil, window == nil { return StrategyAnswer(total: 0, page: []) }
            var matching = allowed
            for word in words {
                var entries = DocumentSet(maximum: maximum)
                let (segments, owners) = try postingsOf(word, db)
                for owner in owners { try segments.unite(owner: owner, into: &entries, within: window, in: db) }
                if matching == nil { matching = entries } else { matching!.formIntersection(entries) }
                if matching!.isEmpty { return StrategyAnswer(total: 0, page: []) }
            }
            guard let matching else { return StrategyAnswer(total: 0, page: []) }
            return try NewestFirst.page(
                of: matching, maximum: maximum, page: page, dated: (filter.from?.microseconds, filter.until?.microseconds),
                candidates: allowed?.count ?? Int(maximum), in: db)
        }
    }
}
