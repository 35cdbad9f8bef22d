import Foundation
import GRDB

/// Orders a word-prefix search's matches most relevant first, by Okapi BM25 as Lucene and
/// Tantivy define it, then newest first among equal scores, and cuts the page.
///
/// An entry's score is the sum, over the query's words and phrases that are not left out
/// (inside a group or an `OR` too), of `idf × tf × (k1 + 1) / (tf + k1 × (1 − b + b × dl / avgdl))`
/// with `idf = ln(1 + (N − n + 0.5) / (n + 0.5))`: N the entries of the journal, n those the
/// term matches, tf how many of the entry's words the term matches (a word: the words it is a
/// prefix of; a phrase: its occurrences), dl the entry's number of words and avgdl the average
/// over the journal. Tags, fields and left-out terms add nothing.
///
/// Each term's frequencies come from the positions in the postings, each entry's length from
/// its document, the journal's counts from the search store's totals.
enum RelevanceOrder {
    static let k1 = 1.2
    static let b = 0.75

    /// The page of `matching` for the plan's `words`, with each entry's score.
    static func page(
        of matching: DocumentSet, words: QueryCondition?, page: PageRequest, maximum: Int64,
        lookup: WordPrefixSearch.Lookup, order: DateOrder?, in db: Database
    ) throws -> StrategyAnswer {
        let members = matching.members
        let totals = try SearchStore.totals(in: db)
        let average = totals.documents > 0 ? Double(totals.words) / Double(totals.documents) : 1
        let lengths = try SearchStore.lengths(of: members, in: db)
        var journal = ConditionEvaluation(db: db, maximum: maximum, fromMain: [:], lookup: lookup)
        var scores: [Int64: Double] = [:]
        for term in scoredTerms(of: words) {
            let frequencies = try self.frequencies(of: term, in: matching, lookup: lookup, db: db)
            guard !frequencies.isEmpty else { continue }
            let matched = Double(try journal.documents(term).count)
            let idf = log(1 + (Double(totals.documents) - matched + 0.5) / (matched + 0.5))
            for (number, count) in frequencies {
                let tf = Double(count)
                let length = Double(lengths[number] ?? 0)
                scores[number, default: 0] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / average))
            }
        }
        let newestFirst = try NewestFirst.all(members, order: order, in: db)
        // A stable sort keeps equal scores newest first.
        let ranked = newestFirst.enumerated().sorted { left, right in
            let (a, b) = (scores[left.element] ?? 0, scores[right.element] ?? 0)
            return a != b ? a > b : left.offset < right.offset
        }.map(\.element)
        let numbers = page.cut(ranked)
        return StrategyAnswer(total: members.count, numbers: numbers, scores: numbers.map { scores[$0] ?? 0 })
    }

    /// The words and phrases of `condition` that score: all of them but those left out.
    static func scoredTerms(of condition: QueryCondition?) -> [QueryCondition] {
        switch condition {
        case .word, .phrase: [condition!]
        case .all(let conditions), .any(let conditions): conditions.flatMap(scoredTerms(of:))
        case .not, .tag, .exactTag, .starred, .dated, nil: []
        }
    }

    /// How many of each matching entry's words `term` matches, for the entries it is in.
    private static func frequencies(
        of term: QueryCondition, in matching: DocumentSet, lookup: WordPrefixSearch.Lookup, db: Database
    ) throws -> [Int64: Int] {
        var frequencies: [Int64: Int] = [:]
        switch term {
        case .word(let word):
            for token in try lookup.tokens(word, db) {
                try SearchStore.addFrequencies(ofToken: token, in: matching, to: &frequencies, in: db)
            }
        case .phrase(let words):
            guard let phrase = try lookup.tokens(ofPhrase: words, in: db) else { return [:] }
            frequencies = try PhraseMatch.occurrences(in: matching, phrase, in: db)
        case .tag, .exactTag, .starred, .dated, .all, .any, .not:
            break
        }
        return frequencies
    }
}
