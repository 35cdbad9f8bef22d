import GRDB

/// The first page of a query whose phrases take long to count, found before its total: what
/// search as you type shows while the count goes on (``LiveSearch``).
///
/// Counting a phrase checks every entry that holds all of its words; when the last word is a short
/// prefix ("the t"), that is most of the journal. The page needs only the newest matches: the
/// entries are walked newest first, and the query is answered, as the count answers it, for a
/// window of entry numbers at a time, each ending where the walk has got to and reaching as far
/// down as the matches found so far say the page needs, until the page is full. That page is the
/// one the counted answer has; its total counts only the entries up to the page's end, and says so
/// (``StrategyAnswer/totalFollows``). Once the windows hold every entry, the page and the total are
/// the counted ones.
///
/// Invariant: taken only for a query of phrases and words required together (nothing left out,
/// no alternatives), whose matches within a window are found from that window's postings
/// alone; newest first. Not taken (nil: the counted answer is made as usual) when a word of
/// the query is in at most ``fewCandidates`` entries: counting them all in one pass costs
/// little.
enum PageBeforeTotal {
    /// Entries of a query's rarest word up to which the query is counted in one pass.
    static let fewCandidates = 2_000
    /// Entries of the first window for each entry the page wants.
    static let firstWindowPerEntryWanted: Int64 = 4

    /// The page of `words` (the plan's words) among the entries `allowed` lets through (all when
    /// nil), the walk bounded by `dated`.
    static func page(
        of words: QueryCondition, allowed: DocumentSet?, page: PageRequest, dated: (from: Int64?, until: Int64?),
        order: DateOrder?, terms: BoundTerms
    ) throws -> StrategyAnswer? {
        guard page.order == .newest, page.limit > 0, let (phrases, plain) = parts(of: words), !phrases.isEmpty
        else { return nil }
        let db = terms.db
        // A term in few entries: the query counted in one pass costs little. A word's tokens are
        // counted when they are few.
        var postings: [BoundTerms.Postings] = []
        for words in phrases {
            guard let tokens = try terms.tokens(ofPhrase: words) else { return nil }
            postings += Set(tokens.exact).map { BoundTerms.Postings(segments: .tokens, owners: [$0]) }
            postings.append(try terms.postings(of: words[words.count - 1]))
        }
        postings += try plain.map(terms.postings(of:))
        for term in postings where term.owners.count <= PhraseMatch.cursorLimit {
            if try !term.segments.haveMoreEntries(than: fewCandidates, owners: term.owners, in: db) { return nil }
        }
        let wanted = page.end(of: Int(terms.maximum) + 1)
        var windows = Windows(words: words, allowed: allowed, terms: terms, wanted: wanted)
        let found: [Int64]
        do {
            found =
                try order?.walk(wanted: wanted, dated: dated, in: db, where: { try windows.contains($0) })
                ?? SearchStore.newestDocuments(
                    wanted, through: terms.maximum, dated: dated, where: { try windows.contains($0) }, in: db)
        } catch is EveryEntryEvaluated {
            // Every match is known: the page and the total as the counted answer makes them.
            return try NewestFirst.page(
                of: windows.matches, maximum: terms.maximum, page: page, dated: dated,
                candidates: allowed?.count ?? Int(terms.maximum), order: order, in: db)
        }
        // A walk that ends short has passed every entry: its count is the total.
        var answer = StrategyAnswer(total: found.count, numbers: page.cut(found))
        answer.totalFollows = found.count == wanted
        return answer
    }

    /// The query's matches among the entries numbered in windows evaluated as the walk reaches
    /// them: each window ends at the first number walked that none holds, and reaches down as
    /// far as the matches found so far say the page needs, twice the last window at least.
    ///
    /// Invariant: `evaluated` holds disjoint ranges, `entries` numbers in all; `matches` holds
    /// exactly the matches numbered in them that `allowed` lets through, `matched` of them.
    private struct Windows {
        let words: QueryCondition
        let allowed: DocumentSet?
        let terms: BoundTerms
        let wanted: Int
        var size: Int64
        var evaluated: [ClosedRange<Int64>] = []
        var entries: Int64 = 0
        var matches: DocumentSet
        var matched = 0

        init(words: QueryCondition, allowed: DocumentSet?, terms: BoundTerms, wanted: Int) {
            (self.words, self.allowed, self.terms, self.wanted) = (words, allowed, terms, wanted)
            size = Int64(wanted) * firstWindowPerEntryWanted
            matches = DocumentSet(maximum: terms.maximum)
        }

        mutating func contains(_ number: Int64) throws -> Bool {
            // Above the largest number searched: a document hidden from this search.
            guard number <= terms.maximum else { return false }
            if evaluated.last?.contains(number) != true, !evaluated.contains(where: { $0.contains(number) }) {
                var low = max(0, number - size + 1)
                for range in evaluated where range.upperBound < number { low = max(low, range.upperBound + 1) }
                var evaluation = ConditionEvaluation(terms: terms, window: low...number, fromMain: [:])
                var found = try evaluation.documents(words)
                if let allowed { found.formIntersection(allowed) }
                matches.formUnion(found)
                matched += found.count
                evaluated.append(low...number)
                entries += number - low + 1
                // The entries the matches still wanted take at the density found so far (one
                // match, when none is found yet).
                let needed = Double(max(wanted - matched, 1)) * Double(entries) / Double(max(matched, 1))
                size = min(max(2 * size, Int64(min(needed, Double(terms.maximum) + 1))), terms.maximum + 1)
                if entries > terms.maximum { throw EveryEntryEvaluated() }
            }
            return matches.contains(number)
        }
    }

    /// Thrown by the walk once the windows hold every entry number: the walk is then left for the
    /// matches' own order.
    private struct EveryEntryEvaluated: Error {}

    /// The phrases and the words of a query that requires them all and nothing else; nil for
    /// any other.
    private static func parts(of words: QueryCondition) -> (phrases: [[String]], words: [String])? {
        let conditions: [QueryCondition]
        switch words {
        case .phrase: conditions = [words]
        case .all(let all): conditions = all
        default: return nil
        }
        var parts: (phrases: [[String]], words: [String]) = ([], [])
        for condition in conditions {
            switch condition {
            case .phrase(let phrase): parts.phrases.append(phrase)
            case .word(let word): parts.words.append(word)
            default: return nil
            }
        }
        return parts
    }
}
