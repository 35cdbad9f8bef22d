import GRDB

/// What the word-prefix strategies share: for each query word, the union of the postings of
/// the tokens it starts, or of its prefix key (each strategy finds them its own way); the
/// intersection across words; then its size and the requested page, newest first, in one
/// read transaction.
///
/// A word that starts another word of the query is left out: it adds no condition. A short
/// word searched alone, whose key's list may hold most of the journal, is counted and
/// paged without reading the list: see ``NewestFirst/walkIsShort(wanted:total:documents:)``.
///
/// A filter goes first and makes the work smaller: the entries it lets through bound which
/// posting segments are read at all. Dates come from the search store's day buckets (a few runs
/// of numbers a day); tags and stars from the main store, which alone knows them.
enum WordPrefixSearch {
    /// `postingsOf` gives, for a query word, whose postings hold its entries.
    static func answer(
        words queryWords: [String], in stores: SearchContext, page: PageRequest,
        postingsOf: (String, Database) throws -> (segments: PostingSegments, owners: [Int64])
    ) throws(JournalError) -> StrategyAnswer {
        let words = needed(queryWords)
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
            let order = try stores.dateOrders.order(in: db)
            var matching = allowed
            for word in words {
                var entries = DocumentSet(maximum: maximum)
                let (segments, owners) = try postingsOf(word, db)
                if words.count == 1, allowed == nil, segments == .prefixKeys, owners.count == 1 {
                    // A short word alone: its key's list may hold most entries. Counted from the
                    // segments' counts and paged by walking from the newest entry, testing each
                    // against the segments that can hold it, it is read only where the page is.
                    let total = try segments.count(owner: owners[0], in: db)
                    let wanted = page.limit == 0 ? total : min(total, page.offset + page.limit)
                    if NewestFirst.walkIsShort(wanted: wanted, total: total, documents: Int(maximum)) {
                        var membership = PostingMembership(segments, owner: owners[0], in: db)
                        return try NewestFirst.page(total: total, page: page, where: { try membership.contains($0) }, order: order, in: db)
                    }
                }
                for owner in owners { try segments.unite(owner: owner, into: &entries, within: window, in: db) }
                if matching == nil { matching = entries } else { matching!.formIntersection(entries) }
                if matching!.isEmpty { return StrategyAnswer(total: 0, page: []) }
            }
            guard let matching else { return StrategyAnswer(total: 0, page: []) }
            return try NewestFirst.page(
                of: matching, maximum: maximum, page: page, dated: (filter.from?.microseconds, filter.until?.microseconds),
                candidates: allowed?.count ?? Int(maximum), order: order, in: db)
        }
    }

    /// The words whose entries are not implied by another's: a word that starts another word
    /// (by code points) starts the token that word starts, so `the t` asks no more than `the`,
    /// and the search reads one list instead of intersecting two.
    static func needed(_ words: [String]) -> [String] {
        var kept: [String] = []
        for (index, word) in words.enumerated() {
            let implied = words.indices.contains { other in
                let longer = words[other].unicodeScalars
                return other != index
                    && longer.starts(with: word.unicodeScalars)
                    && (longer.count > word.unicodeScalars.count || other < index)
            }
            if !implied { kept.append(word) }
        }
        return kept
    }
}
