import GRDB

/// What the word-prefix strategies share: a query's term answered as sets of entry numbers,
/// then their size and the requested page, newest first, in one read transaction.
///
/// A word is the union of the postings of the tokens it starts, or of its prefix key (each
/// strategy finds them its own way); words and terms required together intersect, `OR` unites,
/// `-` takes away; a phrase is its words' intersection, each candidate then checked against its
/// words in order (``PhraseCheck``); a tag or `is:starred` comes from the main store, which
/// alone knows them, a date from the search store's day buckets.
///
/// A word that starts another word required with it is left out: it adds no condition. A short
/// word searched alone, whose key's list may hold most of the journal, is counted and paged
/// without reading the list, filtered or not (`pageOfOneKey`).
///
/// A filter goes first and makes the work smaller: the entries it lets through bound which
/// posting segments are read at all.
enum WordPrefixSearch {
    /// How a strategy finds a word's entries and tokens.
    struct Lookup {
        /// For a query word, whose postings hold its entries.
        let postings: (String, Database) throws -> (segments: PostingSegments, owners: [Int64])
        /// The ids of the tokens a word starts (the last word of a phrase).
        let tokens: (String, Database) throws -> [Int64]
    }

    static func answer(
        _ term: QueryTerm, in stores: SearchContext, page: PageRequest, lookup: Lookup
    ) throws(JournalError) -> StrategyAnswer {
        let filter = stores.filter
        let fromQuery = term.mainStoreConditions
        var fromMain: DocumentSet?
        var known: [QueryTerm: DocumentSet] = [:]
        let fromMainFilter = !filter.tags.isEmpty || filter.starred || filter.onThisDay != nil
        if fromMainFilter || !fromQuery.isEmpty {
            try stores.readMain { db in
                let maximum = try Int64.fetchOne(db, sql: "SELECT max(n) FROM entry") ?? 0
                if fromMainFilter { fromMain = try filter.passing(in: db, maximum: maximum) }
                for condition in fromQuery { known[condition] = try condition.passing(in: db, maximum: maximum) }
            }
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
            let dated = (from: filter.from?.microseconds, until: filter.until?.microseconds)
            let term = term.simplified
            if case .word(let word) = term {
                let (segments, owners) = try lookup.postings(word, db)
                if segments == .prefixKeys, owners.count == 1,
                    let answer = try pageOfOneKey(
                        owners[0], allowed: allowed, window: window, maximum: maximum, page: page, dated: dated, order: order, in: db)
                {
                    return answer
                }
            }
            var evaluation = QueryEvaluation(
                db: db, maximum: maximum, window: window, allowed: allowed, fromMain: known, lookup: lookup)
            var matching = try evaluation.documents(term)
            if let allowed { matching.formIntersection(allowed) }
            return try NewestFirst.page(
                of: matching, maximum: maximum, page: page, dated: dated,
                candidates: allowed?.count ?? Int(maximum), order: order, in: db)
        }
    }

    /// A short word alone, whose key's list may hold most entries, without reading the list:
    /// counted from its segments' counts (those whose whole range the filter lets through, or
    /// all of them without a filter; the others read), and paged by walking from the newest
    /// entry, testing each against the filter and the one segment that can hold it. Nil when
    /// the walk would be long (the matches are few): reading them all is cheaper then.
    private static func pageOfOneKey(
        _ key: Int64, allowed: DocumentSet?, window: ClosedRange<Int64>?, maximum: Int64, page: PageRequest,
        dated: (from: Int64?, until: Int64?), order: DateOrder?, in db: Database
    ) throws -> StrategyAnswer? {
        let candidates = allowed?.count ?? Int(maximum)
        let walkIsShort = { (total: Int) in
            NewestFirst.walkIsShort(
                wanted: page.limit == 0 ? total : min(total, page.offset + page.limit), total: total, documents: candidates)
        }
        let segments = try PostingSegments.prefixKeys.segmentCounts(owner: key, within: window, in: db)
        // The counts bound the total from above: a walk too long for them is too long for it.
        guard walkIsShort(segments.reduce(0) { $0 + $1.count }) else { return nil }
        var membership = PostingMembership(.prefixKeys, owner: key, in: db)
        var total = 0
        for (index, segment) in segments.enumerated() {
            guard let allowed else {
                total += segment.count
                continue
            }
            if index + 1 < segments.count, allowed.containsAll(segment.first..<segments[index + 1].first) {
                total += segment.count
            } else {
                total += try membership.numbers(ofSegmentStartingAt: segment.first).count(where: allowed.contains)
            }
        }
        guard walkIsShort(total) else { return nil }
        return try NewestFirst.page(
            total: total, page: page, dated: dated,
            where: { number in try allowed?.contains(number) != false && membership.contains(number) }, order: order, in: db)
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
