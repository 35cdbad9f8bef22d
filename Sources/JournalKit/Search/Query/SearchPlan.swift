/// What a search does, decided once, before any store is read: which conditions it answers,
/// simplified and in the order they are cheapest to answer, which of them only restrict the
/// entries (dates, tags, the star) and are applied first, and what only the main store knows.
///
/// Invariant: a plan holds no ``QueryTerm`` (every date resolved, on this day to the journal's
/// years), so every strategy answers the same conditions, and nothing of the query is read or
/// judged again after planning.
///
/// For `#travel "new yo" -work` within `--from 2024`, a word-prefix plan's restriction is
/// `#travel` and the dates from 2024, and its words `"new yo"` with `work` left out.
package struct SearchPlan: Sendable {
    /// The family the plan was made for: its strategies answer it.
    package let family: SearchFamily
    /// For the substring family, the text as written, to be found somewhere in the entry
    /// (before each strategy folds it); nil without a text.
    package let needle: String?
    /// For the word-prefix family, the words, phrases and what groups them; nil when the text
    /// asks for nothing but restrictions (`#travel`), or there is no text.
    package let words: QueryCondition?
    /// The conditions on dates, tags and the star that every match meets, cheapest first; nil
    /// when every entry may match.
    package let restriction: QueryCondition?
    /// The span every match is dated in: the restriction's dates intersected, for a walk from
    /// the newest entry to start and stop at.
    package let dateBounds: (from: Int64?, until: Int64?)
    /// The tags and stars anywhere in the plan: read from the main store, which alone keeps
    /// them, before the search store is.
    package let mainStoreConditions: Set<QueryCondition>
    /// The words and phrases an entry's relevance is the sum of, each distinct one once: all
    /// but those left out, inside a group or an `OR` too, a word that starts another word
    /// among them (which ``words`` leaves out: its entries are the longer word's) included.
    package let scoredTerms: [QueryCondition]

    /// Plans `query` for a strategy of `family`. `earliestDate` is the date of the journal's
    /// earliest entry, whose year is as far back as on this day looks (nil: the journal has no
    /// entry); needed only when the query asks for on this day (``SearchQuery/asksOnThisDay``).
    /// A text the word-prefix syntax can't read is a usage error.
    package init(_ query: SearchQuery, family: SearchFamily, earliestDate: JournalDate?) throws(JournalError) {
        let resolve = { (term: QueryTerm) in Self.condition(of: term, earliestDate: earliestDate) }
        self.family = family
        var conjuncts = query.filter.map(resolve)
        if family == .wordPrefix, query.text != nil { conjuncts.insert(resolve(try query.term()), at: 0) }
        needle = family == .substring ? query.text : nil
        let simplified = Self.simplified(.all(conjuncts))
        let top: [QueryCondition] = if case .all(let conditions) = simplified { conditions } else { [simplified] }
        let restrictions = top.filter(\.isRestriction)
        let words = top.filter { !$0.isRestriction }
        self.words = words.isEmpty ? nil : words.count == 1 ? words[0] : .all(words)
        restriction = restrictions.isEmpty ? nil : restrictions.count == 1 ? restrictions[0] : .all(restrictions)
        dateBounds = restrictions.reduce((from: nil, until: nil)) { bounds, condition in
            guard case .dated(let from, let until) = condition else { return bounds }
            return (
                from: [bounds.from, from].compactMap { $0 }.max(), until: [bounds.until, until].compactMap { $0 }.min()
            )
        }
        mainStoreConditions = simplified.mainStoreConditions
        var distinct = Set<QueryCondition>()
        scoredTerms = Self.scoredTerms(of: .all(conjuncts)).filter { distinct.insert($0).inserted }
    }

    /// The words and phrases of `condition` that score: all of them but those left out.
    private static func scoredTerms(of condition: QueryCondition) -> [QueryCondition] {
        switch condition {
        case .word, .phrase: [condition]
        case .all(let conditions), .any(let conditions): conditions.flatMap(scoredTerms(of:))
        case .not, .tag, .exactTag, .starred, .dated: []
        }
    }

    /// Every condition the plan answers, as one: the restriction and the words together (for a
    /// strategy that hands both to one engine, as FTS5 does).
    package var condition: QueryCondition {
        let all = [restriction, words].compactMap { $0 }
        return all.count == 1 ? all[0] : .all(all)
    }

    /// `term` with its dates in microseconds and on this day as its days in the years since
    /// `earliestDate`'s (none without it).
    private static func condition(of term: QueryTerm, earliestDate: JournalDate?) -> QueryCondition {
        switch term {
        case .word(let word): .word(word)
        case .phrase(let words): .phrase(words)
        case .tag(let name): .tag(name)
        case .exactTag(let name): .exactTag(name)
        case .starred: .starred
        case .dated(let from, let until): .dated(from: from?.microseconds, until: until?.microseconds)
        case .onThisDay(let day):
            .any(
                day.days(backTo: earliestDate.map { OnThisDay($0, timeZone: day.timeZone).year } ?? day.year).map {
                    .dated(from: $0.from.microseconds, until: $0.until.microseconds)
                })
        case .all(let terms): .all(terms.map { condition(of: $0, earliestDate: earliestDate) })
        case .any(let terms): .any(terms.map { condition(of: $0, earliestDate: earliestDate) })
        case .not(let term): .not(condition(of: term, earliestDate: earliestDate))
        }
    }

    /// The condition with groups of one replaced by what they hold, groups of groups of the same
    /// kind joined, the words required beside a longer word they start left out (``needed(_:)``),
    /// and what is required together ordered cheapest first, the conditions left out last.
    private static func simplified(_ condition: QueryCondition) -> QueryCondition {
        switch condition {
        case .all(let conditions):
            let flat = conditions.map(simplified).flatMap { inner -> [QueryCondition] in
                if case .all(let nested) = inner { nested } else { [inner] }
            }
            let words = needed(flat.compactMap { if case .word(let word) = $0 { word } else { nil } })
            let kept = flat.filter { if case .word = $0 { false } else { true } } + words.map(QueryCondition.word)
            let required = kept.enumerated().filter { if case .not = $0.element { false } else { true } }
            let left = kept.filter { if case .not = $0 { true } else { false } }
            let ordered =
                required.sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }.map(\.element) + left
            return ordered.count == 1 ? ordered[0] : .all(ordered)
        case .any(let conditions):
            let flat = conditions.map(simplified).flatMap { inner -> [QueryCondition] in
                if case .any(let nested) = inner { nested } else { [inner] }
            }
            return flat.count == 1 ? flat[0] : .any(flat)
        case .not(let inner):
            return .not(simplified(inner))
        case .word, .phrase, .tag, .exactTag, .starred, .dated:
            return condition
        }
    }

    /// The words whose entries are not implied by another's: a word that starts another word
    /// (by code points) starts the token that word starts, so `the t` asks no more than `the`,
    /// and the search reads one list instead of intersecting two.
    package static func needed(_ words: [String]) -> [String] {
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

extension QueryCondition {
    /// Which required conditions to answer first: those read straight from a list before those
    /// that check candidates.
    fileprivate var cost: Int {
        switch self {
        case .tag, .exactTag, .starred, .dated, .word: 0
        case .any, .not: 1
        case .phrase, .all: 2
        }
    }
}
