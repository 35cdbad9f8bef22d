import Foundation
import GRDB

/// Orders a word-prefix search's matches most relevant first, by Okapi BM25 as Lucene and
/// Tantivy define it, then newest first among equal scores, and cuts the page.
///
/// An entry's score is the sum, over the query's distinct words and phrases that are not left
/// out (inside a group or an `OR` too, ``SearchPlan/scoredTerms``), of `idf × tf × (k1 + 1) / (tf + k1 × (1 − b + b × dl / avgdl))`
/// with `idf = ln(1 + (N − n + 0.5) / (n + 0.5))`: N the entries of the journal, n those the
/// term matches, tf how many of the entry's words the term matches (a word: the words it is a
/// prefix of; a phrase: its occurrences), dl the entry's number of words and avgdl the average
/// over the journal. Tags, fields and left-out terms add nothing.
///
/// Scores are kept in an array by the match's rank among the matches (``DocumentSet/Ranks``):
/// each term's frequencies from the positions in the postings, each entry's length from the
/// blocks of lengths (``DocumentLengths``), the journal's counts from the search store's
/// totals. Only the page's entries and those tied with its last score are put in date order.
enum RelevanceOrder {
    static let k1 = 1.2
    static let b = 0.75

    /// The page of `matching` for `plan`, with each entry's score.
    static func page(
        of matching: DocumentSet, plan: SearchPlan, page: PageRequest, visibility: SearchVisibility,
        terms: BoundTerms, order: DateOrder?
    ) throws -> StrategyAnswer {
        let (db, maximum) = (terms.db, terms.maximum)
        let members = matching.members
        guard let range = matching.bounds else { return StrategyAnswer(total: 0, numbers: [], scores: []) }
        let scores = try self.scores(
            of: members, in: matching, range: range, plan: plan, visibility: visibility, terms: terms)
        let wanted = page.end(of: members.count)
        let ranked =
            wanted < members.count
            ? try best(wanted, of: members, scores: scores, maximum: maximum, order: order, in: db)
            : byScore(
                try NewestFirst.all(members, order: order, in: db),
                Dictionary(uniqueKeysWithValues: zip(members, scores)))
        let cut = page.cut(ranked)
        return StrategyAnswer(total: members.count, numbers: cut.map(\.number), scores: cut.map(\.score))
    }

    /// `newestFirst` most relevant first, newest first among equal scores (a stable sort).
    private static func byScore(_ newestFirst: [Int64], _ scoreOf: [Int64: Double]) -> [(number: Int64, score: Double)]
    {
        newestFirst.map { (number: $0, score: scoreOf[$0] ?? 0) }.enumerated().sorted {
            $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset
        }.map(\.element)
    }

    /// Each member's score, by its index in `members`.
    private static func scores(
        of members: [Int64], in matching: DocumentSet, range: ClosedRange<Int64>, plan: SearchPlan,
        visibility: SearchVisibility, terms: BoundTerms
    ) throws -> [Double] {
        let (db, maximum) = (terms.db, terms.maximum)
        var scores = [Double](repeating: 0, count: members.count)
        let scored = plan.scoredTerms
        guard !scored.isEmpty else { return scores }
        let totals = visibility.totals
        let visible = visibility.visibleNumbers(maximum: maximum)
        let average = totals.documents > 0 ? Double(totals.words) / Double(totals.documents) : 1
        let lengths = try DocumentLengths.lengths(of: members, in: db)
        let ranks = DocumentSet.Ranks(matching)
        // BM25's length part of each member, the same for every term.
        let norms = lengths.map { k1 * (1 - b + b * Double($0) / average) }
        var journal = ConditionEvaluation(terms: terms, fromMain: [:])
        var frequencies = [UInt32](repeating: 0, count: members.count)
        for term in scored {
            for index in frequencies.indices { frequencies[index] = 0 }
            try addFrequencies(
                of: term, ranks: ranks, range: range, in: matching, to: &frequencies, terms: terms)
            // A query of one term unfiltered matched what the term matches in the journal.
            let matched: Int
            if plan.restriction == nil && plan.words == term {
                matched = members.count
            } else {
                var found = try journal.documents(term)
                if let visible { found.formIntersection(visible) }
                matched = found.count
            }
            let idf = log(1 + (Double(totals.documents) - Double(matched) + 0.5) / (Double(matched) + 0.5))
            for (index, count) in frequencies.enumerated() where count > 0 {
                let tf = Double(count)
                scores[index] += idf * tf * (k1 + 1) / (tf + norms[index])
            }
        }
        return scores
    }

    /// The `wanted` best of `members` in order, with their scores: those scoring above the
    /// `wanted`th best score, newest first among equals, then the newest of those tied with it.
    private static func best(
        _ wanted: Int, of members: [Int64], scores: [Double], maximum: Int64, order: DateOrder?, in db: Database
    ) throws -> [(number: Int64, score: Double)] {
        guard wanted > 0 else { return [] }
        let threshold = largest(wanted, of: scores)
        var above: [Int64: Double] = [:]
        var tied = DocumentSet(maximum: maximum)
        for (index, score) in scores.enumerated() {
            if score > threshold {
                above[members[index]] = score
            } else if score == threshold {
                tied.insert(members[index])
            }
        }
        let newestTied = try NewestFirst.page(
            of: tied, maximum: maximum, page: PageRequest(limit: wanted - above.count), order: order, in: db
        ).numbers
        return byScore(try NewestFirst.all(above.keys.sorted(), order: order, in: db), above)
            + newestTied.map { (number: $0, score: threshold) }
    }

    /// The `count`th largest of `values` (`count` from 1 to their number): the smallest of a
    /// min-heap of the largest seen.
    private static func largest(_ count: Int, of values: [Double]) -> Double {
        var heap = Array(values.prefix(count))
        func siftDown(from start: Int) {
            var parent = start
            while true {
                let (left, right) = (2 * parent + 1, 2 * parent + 2)
                var smallest = parent
                if left < heap.count, heap[left] < heap[smallest] { smallest = left }
                if right < heap.count, heap[right] < heap[smallest] { smallest = right }
                if smallest == parent { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
        for value in values.dropFirst(count) where value > heap[0] {
            heap[0] = value
            siftDown(from: 0)
        }
        return heap[0]
    }

    /// Adds how many of each matching entry's words `term` matches, by the entry's rank among
    /// the matches.
    private static func addFrequencies(
        of term: QueryCondition, ranks: DocumentSet.Ranks, range: ClosedRange<Int64>, in matching: DocumentSet,
        to frequencies: inout [UInt32], terms: BoundTerms
    ) throws {
        let db = terms.db
        switch term {
        case .word(let word):
            if let key = try terms.keyWithPositions(of: word) {
                // Its key's list within the range costs no more than the word's entries, which
                // the matches were found from.
                try SearchStore.addFrequencies(
                    of: [key], in: .prefixKeys, ranks: ranks, within: range, to: &frequencies, in: db)
            } else {
                try SearchStore.addFrequencies(
                    of: SearchStore.tokens(terms.tokens(of: word), heldByAnyOf: matching, in: db), in: .tokens,
                    ranks: ranks, within: range, to: &frequencies, in: db)
            }
        case .phrase(let words):
            if let found = terms.occurrences(ofPhrase: words, covering: range) {
                for (number, count) in zip(found.numbers, found.counts) {
                    if let rank = ranks.rank(of: number) { frequencies[rank] = UInt32(count) }
                }
                return
            }
            guard let phrase = try terms.tokens(ofPhrase: words) else { return }
            try PhraseMatch.forEachOccurrenceCount(in: matching, phrase, in: db) { number, count in
                if let rank = ranks.rank(of: number) { frequencies[rank] = UInt32(count) }
            }
        case .tag, .exactTag, .starred, .dated, .all, .any, .not:
            break
        }
    }
}
