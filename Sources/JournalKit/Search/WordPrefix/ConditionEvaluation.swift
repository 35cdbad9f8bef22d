import GRDB

/// A plan's ``QueryCondition`` answered as a set of entry numbers in one read transaction of
/// the search store, for the word-prefix strategies (``WordPrefixSearch``).
///
/// Conditions required together are intersected in the plan's order (cheapest first), the
/// left-out ones subtracted after; with nothing required, the left-out conditions are taken
/// from every document (or from those the restriction lets through). A phrase checks only the
/// candidates the other required conditions left. Tags and the star were read from the main
/// store before (`fromMain`); dates come from the search store's day buckets; words and phrases
/// from the search's ``BoundTerms``.
struct ConditionEvaluation {
    let terms: BoundTerms
    private var db: Database { terms.db }
    private var maximum: Int64 { terms.maximum }
    /// The numbers the restriction can let through, which bound the posting segments read.
    let window: ClosedRange<Int64>?
    /// The entries the restriction lets through, when there is one.
    let allowed: DocumentSet?
    /// The sets of the conditions only the main store answers (tags, the star), read before.
    let fromMain: [QueryCondition: DocumentSet]
    private var everyDocument: DocumentSet?

    init(
        terms: BoundTerms, window: ClosedRange<Int64>? = nil, allowed: DocumentSet? = nil,
        fromMain: [QueryCondition: DocumentSet]
    ) {
        self.terms = terms
        self.window = window
        self.allowed = allowed
        self.fromMain = fromMain
    }

    /// The documents for which `condition` holds; with `within`, only those of it are sure to
    /// be right (a phrase checks no others).
    mutating func documents(_ condition: QueryCondition, within candidates: DocumentSet? = nil) throws -> DocumentSet {
        switch condition {
        case .word(let word):
            return try terms.documents(ofWord: word, within: window)
        case .phrase(let words):
            // The candidates with every word of the phrase, then those holding them side by side.
            return try terms.documents(ofPhrase: words, within: window, candidates: candidates)
        case .tag, .exactTag, .starred:
            guard let found = fromMain[condition] else {
                preconditionFailure("\(condition) was not read from the main store")
            }
            return found
        case .dated(let from, let until):
            return try DateBuckets.documents(from: from, until: until, maximum: maximum, in: db)
        case .any(let conditions):
            var union = DocumentSet(maximum: maximum)
            for condition in conditions { union.formUnion(try documents(condition, within: candidates)) }
            return union
        case .not(let condition):
            var rest = try universe()
            rest.subtract(try documents(condition, within: candidates))
            return rest
        case .all(let conditions):
            return try allDocuments(conditions, within: candidates)
        }
    }

    /// Conditions required together, each checking only what the ones before it left; then the
    /// left-out conditions taken away.
    private mutating func allDocuments(
        _ conditions: [QueryCondition], within candidates: DocumentSet?
    ) throws -> DocumentSet {
        var matching = candidates
        for condition in conditions {
            if case .not = condition { continue }
            let found = try documents(condition, within: matching)
            if matching == nil { matching = found } else { matching!.formIntersection(found) }
            if matching!.isEmpty { return matching! }
        }
        var result = try matching ?? universe()
        for case .not(let left) in conditions {
            result.subtract(try documents(left, within: result))
            if result.isEmpty { break }
        }
        return result
    }

    /// What a left-out condition is taken from: the entries the restriction lets through, or
    /// all.
    private mutating func universe() throws -> DocumentSet {
        if let allowed { return allowed }
        if let everyDocument { return everyDocument }
        let all = try DateBuckets.documents(from: nil, until: nil, maximum: maximum, in: db)
        everyDocument = all
        return all
    }
}
