import GRDB

/// A ``QueryTerm`` answered as a set of entry numbers in one read transaction of the search
/// store, for the word-prefix strategies (``WordPrefixSearch``).
///
/// Terms required together are intersected, the left-out ones subtracted; with nothing
/// required, the left-out terms are taken from every document (or from those the filter lets
/// through). A phrase checks only the candidates the other required terms left.
struct QueryEvaluation {
    let db: Database
    let maximum: Int64
    /// The numbers the filter can let through, which bound the posting segments read.
    let window: ClosedRange<Int64>?
    /// The entries the filter lets through, when there is one.
    let allowed: DocumentSet?
    /// The sets of the terms only the main store answers (tags, `is:starred`), read before.
    let fromMain: [QueryTerm: DocumentSet]
    let lookup: WordPrefixSearch.Lookup
    private var everyDocument: DocumentSet?

    init(
        db: Database, maximum: Int64, window: ClosedRange<Int64>?, allowed: DocumentSet?, fromMain: [QueryTerm: DocumentSet],
        lookup: WordPrefixSearch.Lookup
    ) {
        self.db = db
        self.maximum = maximum
        self.window = window
        self.allowed = allowed
        self.fromMain = fromMain
        self.lookup = lookup
    }

    /// The documents for which `term` holds; with `within`, only those of it are sure to be
    /// right (a phrase checks no others).
    mutating func documents(_ term: QueryTerm, within candidates: DocumentSet? = nil) throws -> DocumentSet {
        switch term {
        case .word(let word):
            return try wordDocuments(word)
        case .phrase(let words):
            return try phraseDocuments(words, within: candidates)
        case .tag, .starred:
            return fromMain[term] ?? DocumentSet(maximum: maximum)
        case .dated(let from, let until):
            return try DateBuckets.documents(from: from?.microseconds, until: until?.microseconds, maximum: maximum, in: db)
        case .any(let terms):
            var union = DocumentSet(maximum: maximum)
            for term in terms { union.formUnion(try documents(term, within: candidates)) }
            return union
        case .not(let term):
            var rest = try universe()
            rest.subtract(try documents(term, within: candidates))
            return rest
        case .all(let terms):
            return try allDocuments(terms, within: candidates)
        }
    }

    /// Terms required together: the cheap ones first (words, tags, dates), phrases and groups
    /// after, each checking only what is left; then the left-out terms taken away.
    private mutating func allDocuments(_ terms: [QueryTerm], within candidates: DocumentSet?) throws -> DocumentSet {
        var left: [QueryTerm] = []
        var required: [QueryTerm] = []
        for term in terms {
            if case .not(let inner) = term { left.append(inner) } else { required.append(term) }
        }
        required.sort { $0.cost < $1.cost }
        var matching = candidates
        for term in required {
            let found = try documents(term, within: matching)
            if matching == nil { matching = found } else { matching!.formIntersection(found) }
            if matching!.isEmpty { return matching! }
        }
        var result = try matching ?? universe()
        for term in left {
            result.subtract(try documents(term, within: result))
            if result.isEmpty { break }
        }
        return result
    }

    private func wordDocuments(_ word: String) throws -> DocumentSet {
        let (segments, owners) = try lookup.postings(word, db)
        var entries = DocumentSet(maximum: maximum)
        for owner in owners { try segments.unite(owner: owner, into: &entries, within: window, in: db) }
        return entries
    }

    /// The candidates with every word of the phrase (the exact tokens of all but the last, and
    /// the last as a prefix), then those holding them side by side.
    private func phraseDocuments(_ words: [String], within candidates: DocumentSet?) throws -> DocumentSet {
        let find = try db.cachedStatement(sql: "SELECT id FROM token WHERE text = ?")
        let exact = try words.dropLast().map { try Int64.fetchOne(find, arguments: [$0]) }
        guard var check = try PhraseCheck(exact: exact, lastTokens: lookup.tokens(words[words.count - 1], db), in: db) else {
            return DocumentSet(maximum: maximum)
        }
        var matching = candidates
        for id in Set(exact.compactMap { $0 }) {
            var entries = DocumentSet(maximum: maximum)
            try PostingSegments.tokens.unite(owner: id, into: &entries, within: window, in: db)
            if matching == nil { matching = entries } else { matching!.formIntersection(entries) }
        }
        var found = try wordDocuments(words[words.count - 1])
        if let matching { found.formIntersection(matching) }
        return try check.filter(found, maximum: maximum)
    }

    /// What a left-out term is taken from: the entries the filter lets through, or all.
    private mutating func universe() throws -> DocumentSet {
        if let allowed { return allowed }
        if let everyDocument { return everyDocument }
        let all = try DateBuckets.documents(from: nil, until: nil, maximum: maximum, in: db)
        everyDocument = all
        return all
    }
}

extension QueryTerm {
    /// The same term with the words required beside a longer word they start left out
    /// (``WordPrefixSearch/needed(_:)``), and groups of one term replaced by it.
    var simplified: QueryTerm {
        switch self {
        case .all(let terms):
            let words = WordPrefixSearch.needed(terms.compactMap { if case .word(let word) = $0 { word } else { nil } })
            let kept = terms.filter { if case .word = $0 { false } else { true } }.map(\.simplified) + words.map(QueryTerm.word)
            return kept.count == 1 ? kept[0] : .all(kept)
        case .any(let terms): return terms.count == 1 ? terms[0].simplified : .any(terms.map(\.simplified))
        case .not(let term): return .not(term.simplified)
        default: return self
        }
    }

    /// The tags and `is:starred` in the term: what only the main store answers.
    var mainStoreConditions: Set<QueryTerm> {
        switch self {
        case .tag, .starred: [self]
        case .all(let terms), .any(let terms): terms.reduce(into: []) { $0.formUnion($1.mainStoreConditions) }
        case .not(let term): term.mainStoreConditions
        default: []
        }
    }

    /// The entries of a tag or `is:starred`, read from the main store.
    func passing(in db: Database, maximum: Int64) throws -> DocumentSet {
        switch self {
        case .tag(let name):
            return try EntryTags.entries(taggedAtOrBelow: name, maximum: maximum, in: db)
        default:
            var starred = EntryFilter.none
            starred.starred = true
            return try starred.passing(in: db, maximum: maximum)
        }
    }

    /// Which required terms to answer first: those read straight from a list before those that
    /// check candidates.
    fileprivate var cost: Int {
        switch self {
        case .tag, .starred, .dated, .word: 0
        case .any, .not: 1
        case .phrase, .all: 2
        }
    }
}
