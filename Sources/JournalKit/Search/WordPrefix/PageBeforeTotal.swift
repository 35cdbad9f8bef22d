import GRDB

/// The first page of a query whose phrases take long to count, found before its total: what
/// search as you type shows while the count goes on (``LiveSearch``).
///
/// Counting a phrase checks every entry that holds all of its words; when the last word is a
/// short prefix ("the t"), that is most of the journal and every token the prefix starts. The
/// page needs only the newest matches: the entries are walked newest first, each tested
/// against its words' postings (``PostingMembership``, a segment read once for the entries it
/// holds) and, holding them all, checked on its own (``PhraseMatch/EntryCheck``), until the
/// page is full. That page is the one the counted answer has; its total counts only the
/// entries up to the page's end, and says so (``StrategyAnswer/totalFollows``).
///
/// Invariant: taken only where every match holds every word: a query of phrases and words
/// required together (nothing left out, no alternatives), newest first. Not taken (nil: the
/// counted answer is made as usual) when a word of the query is in at most ``fewCandidates``
/// entries (checking them all in one pass costs little), or once the walk has passed
/// ``stepsPerEntryWanted`` entries for each the page wants (the matches are sparse).
enum PageBeforeTotal {
    /// Entries of a query's rarest word up to which the query is counted in one pass.
    static let fewCandidates = 2_000
    /// Entries passed, for each entry the page wants, before the walk gives up.
    static let stepsPerEntryWanted = 128
    /// Tokens of a word past which its entries are not tested one by one.
    private static let ownersTested = 4

    /// The page of `words` (the plan's words) among the entries `allowed` lets through (all when
    /// nil), the walk bounded by `dated`.
    static func page(
        of words: QueryCondition, allowed: DocumentSet?, page: PageRequest, dated: (from: Int64?, until: Int64?),
        order: DateOrder?, terms: BoundTerms
    ) throws -> StrategyAnswer? {
        guard page.order == .newest, page.limit > 0, let (phrases, plain) = parts(of: words), !phrases.isEmpty
        else { return nil }
        let db = terms.db
        var checks: [PhraseMatch.EntryCheck] = []
        // The postings of each term an entry must have (any of a term's owners holding it),
        // counted first; those tested as the walk goes (the exact words of a phrase are tested by
        // its check).
        var counted: [(segments: PostingSegments, owners: [Int64])] = []
        var tested: [(segments: PostingSegments, owners: [Int64])] = []
        for words in phrases {
            guard let tokens = try terms.tokens(ofPhrase: words) else { return nil }
            checks.append(PhraseMatch.EntryCheck(tokens, in: db))
            counted += Set(tokens.exact).map { (PostingSegments.tokens, [$0]) }
            let last = try terms.postings(of: words[words.count - 1])
            if last.owners.count <= ownersTested { tested.append((last.segments, last.owners)) }
        }
        for word in plain {
            let found = try terms.postings(of: word)
            guard found.owners.count <= ownersTested else { return nil }
            tested.append((found.segments, found.owners))
        }
        for term in counted + tested
        where try !term.segments.haveMoreEntries(than: fewCandidates, owners: term.owners, in: db) {
            return nil
        }
        var memberships = tested.map { term in
            term.owners.map { PostingMembership(term.segments, owner: $0, in: db) }
        }
        let wanted = page.offset + page.limit
        var steps = wanted * stepsPerEntryWanted
        let holds = { (number: Int64) throws -> Bool in
            steps -= 1
            guard steps >= 0 else { throw WalkTooLong() }
            if let allowed, !allowed.contains(number) { return false }
            for term in memberships.indices {
                var found = false
                for owner in memberships[term].indices where try memberships[term][owner].contains(number) {
                    found = true
                    break
                }
                if !found { return false }
            }
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
        // A walk that ends short has passed every entry: its count is the total.
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
