import GRDB

/// The first page of a query whose phrases take long to count, found before its total: what
/// search as you type shows while the count goes on (``LiveSearch``).
///
/// Counting a phrase checks every entry that holds all of its words; when the last word is a
/// short prefix ("the t"), that is most of the journal and every token the prefix starts. The
/// page needs only the newest matches: the entries holding every word are walked newest first,
/// each checked on its own (``PhraseMatch/EntryCheck``), until the page is full. That page is
/// the one the counted answer has; its total counts only the page, and says so
/// (``StrategyAnswer/totalFollows``).
///
/// Invariant: taken only where the entries holding every word hold every match: a query of
/// phrases and words required together (nothing left out, no alternatives), newest first.
/// Not taken (nil: the counted answer is made as usual) when the candidates are few enough to
/// check in one pass, or once the walk has checked ``checksPerEntryWanted`` entries for each
/// the page wants (the matches are sparse among them).
enum PageBeforeTotal {
    /// Candidates up to which a phrase is checked for all of them in one pass and counted.
    static let fewCandidates = 2_000
    /// Entries checked one by one, for each entry the page wants, before the walk gives up.
    static let checksPerEntryWanted = 8

    /// The page of `words` (the plan's words) among the entries `allowed` lets through (all when
    /// nil), segments read within `window`, the walk bounded by `dated`.
    static func page(
        of words: QueryCondition, allowed: DocumentSet?, window: ClosedRange<Int64>?, page: PageRequest,
        dated: (from: Int64?, until: Int64?), order: DateOrder?, terms: BoundTerms
    ) throws -> StrategyAnswer? {
        guard page.order == .newest, page.limit > 0, let (phrases, plain) = parts(of: words), !phrases.isEmpty
        else { return nil }
        var candidates = allowed
        var checks: [PhraseMatch.EntryCheck] = []
        for words in phrases {
            guard let tokens = try terms.tokens(ofPhrase: words) else { return nil }
            candidates = try terms.documents(withEveryWordOf: words, tokens, within: window, candidates: candidates)
            checks.append(PhraseMatch.EntryCheck(tokens))
        }
        for word in plain { candidates!.formIntersection(try terms.documents(ofWord: word, within: window)) }
        guard let candidates, candidates.count > fewCandidates else { return nil }
        let wanted = page.offset + page.limit
        var budget = wanted * checksPerEntryWanted
        let db = terms.db
        let holds = { (number: Int64) throws -> Bool in
            guard candidates.contains(number) else { return false }
            guard budget > 0 else { throw WalkTooLong() }
            budget -= 1
            for index in checks.indices where try !checks[index].holds(at: number, in: db) { return false }
            return true
        }
        let found: [Int64]
        do {
            found =
                try order?.walk(wanted: wanted, dated: dated, in: db, where: holds)
                ?? SearchStore.newestDocuments(wanted, through: terms.maximum, dated: dated, where: holds, in: db)
        } catch is WalkTooLong {
            return nil
        }
        // A walk that ends short has checked every candidate: its count is the total.
        var answer = StrategyAnswer(total: found.count, numbers: page.cut(found))
        answer.totalFollows = found.count == wanted
        return answer
    }

    private struct WalkTooLong: Error {}

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
