import GRDB

/// What the word-prefix strategies share: a plan's conditions answered as sets of entry
/// numbers, then their size and the requested page, newest first, in one read transaction.
///
/// A word is the union of the postings of the tokens it starts, or of its prefix key (each
/// strategy finds them its own way); conditions required together intersect, `OR` unites,
/// `-` takes away; a phrase is its words' intersection, each candidate then checked by merging
/// its words' positions from the postings (``PhraseMatch``); a tag or the star comes from the main store, which alone
/// knows them, a date from the search store's day buckets (``ConditionEvaluation``).
///
/// The documents of an insert the search store has applied in part are in no answer: they are
/// left out as a restriction would leave them (``SearchVisibility``), and relevance weighs terms
/// by the journal before it.
///
/// The plan's restriction goes first and makes the work smaller: the entries it lets through
/// bound which posting segments are read at all. A short word searched alone, whose key's list
/// may hold most of the journal, is counted and paged without reading the list, restricted or
/// not (`pageOfOneKey`). A caller that takes the total later may have the page of a phrase
/// slow to count before it (``PageBeforeTotal``).
enum WordPrefixSearch {
    /// How a strategy finds a word's entries and tokens.
    struct Lookup {
        /// For a query word, whose postings hold its entries.
        let postings: (String, Database) throws -> (segments: PostingSegments, owners: [Int64])
        /// The ids of the tokens a word starts (the last word of a phrase, a word relevance
        /// counts), asked only when its postings are not those tokens.
        let tokens: (String, Database) throws -> [Int64]
        /// Whether a phrase's last word of one or two code points that starts many tokens is
        /// matched through the positions the prefix keys of two code points keep
        /// (``PostingOwner/keyLengthWithPositions``): one list or a few, where its tokens are
        /// many.
        var keyPositions = false
    }

    static func answer(
        _ plan: SearchPlan, in stores: SearchContext, page: PageRequest, lookup: Lookup
    ) throws(JournalError) -> StrategyAnswer {
        var fromMain: [QueryCondition: DocumentSet] = [:]
        if !plan.mainStoreConditions.isEmpty {
            try stores.readMain { db in
                let maximum = try MainStore.maximumNumber(in: db)
                for condition in plan.mainStoreConditions {
                    fromMain[condition] = try MainStore.numbers(meeting: condition, maximum: maximum, in: db)
                }
            }
        }
        let counts = BoundTerms.lookups
        return try stores.readSearch { db in
            let visibility = try SearchVisibility.read(in: db)
            let maximum = visibility.maximum(try SearchStore.maximumDocument(in: db))
            let terms = BoundTerms(
                lookup: lookup, maximum: maximum, db: db, counts: counts,
                keepsPhraseOccurrences: page.order == .relevance)
            var answer = try answer(
                plan, page: page, visibility: visibility, fromMain: fromMain,
                order: stores.dateOrders.order(in: db, at: visibility.position),
                terms: terms, totalMayFollow: stores.totalMayFollow)
            answer.indexed = visibility.position
            return answer
        }
    }

    /// The answer from the documents `visibility` lets readers see, in one read transaction.
    private static func answer(
        _ plan: SearchPlan, page: PageRequest, visibility: SearchVisibility, fromMain: [QueryCondition: DocumentSet],
        order: DateOrder?, terms: BoundTerms, totalMayFollow: Bool
    ) throws -> StrategyAnswer {
        let (db, maximum) = (terms.db, terms.maximum)
        var allowed = try plan.restriction.map { restriction in
            var evaluation = ConditionEvaluation(terms: terms, fromMain: fromMain)
            return try evaluation.documents(restriction)
        }
        // Documents of a change applied in part are let through by no restriction.
        if let visible = visibility.visibleNumbers(maximum: maximum) {
            if allowed == nil { allowed = visible } else { allowed!.formIntersection(visible) }
        }
        let window = allowed?.bounds
        if allowed != nil, window == nil { return .none }
        let dated = visibility.narrowed(plan.dateBounds)
        if case .word(let word) = plan.words, page.order == .newest {
            let postings = try terms.postings(of: word)
            if postings.segments == .prefixKeys, postings.owners.count == 1,
                let answer = try pageOfOneKey(
                    postings.owners[0], allowed: allowed, window: window, maximum: maximum, page: page,
                    dated: dated, order: order,
                    in: db)
            {
                return answer
            }
        }
        if totalMayFollow, let words = plan.words,
            let first = try PageBeforeTotal.page(
                of: words, allowed: allowed, page: page, dated: dated, order: order, terms: terms)
        {
            return first
        }
        var evaluation = ConditionEvaluation(terms: terms, window: window, allowed: allowed, fromMain: fromMain)
        var matching =
            try plan.words.map { try evaluation.documents($0) } ?? allowed ?? evaluation.documents(.all([]))
        if let allowed { matching.formIntersection(allowed) }
        if page.order == .relevance {
            return try RelevanceOrder.page(
                of: matching, plan: plan, page: page, visibility: visibility, terms: terms, order: order)
        }
        return try NewestFirst.page(
            of: matching, maximum: maximum, page: page, dated: dated,
            candidates: allowed?.count ?? Int(maximum), order: order, in: db)
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
            NewestFirst.walkIsShort(wanted: page.end(of: total), total: total, documents: candidates)
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
            total: total, maximum: maximum, page: page, dated: dated,
            where: { number in try allowed?.contains(number) != false && membership.contains(number) }, order: order,
            in: db)
    }
}
