import Foundation
import JournalText
import Testing

@testable import JournalBench
@testable import JournalKit

/// Relevance against an independent BM25 over the entries' words, read from their texts: the
/// order of the whole result and each entry's score, for words, prefixes, phrases, groups, OR
/// and words left out, in every script the synthetic corpus writes.
@Suite struct RelevanceOrderTests {
    /// A query as the reference sees it: the terms that score, and the text to search.
    private struct Query {
        var text: String
        /// Each scoring term, once: a word (a prefix of the entry's words) or a phrase.
        var scored: [[String]]
    }

    @Test func scoresAgreeWithAReferenceBM25() throws {
        let store = try TemporaryJournal()
        var texts = SyntheticJournal(count: 900, seed: 33).map(\.text)
        texts += ["coffee", "coffee coffee coffee in the morning", "the the the the"]
        try store.importTexts(texts, oneADay: true)
        let words = texts.map(WordsReference.words(of:))
        let average = Double(words.map(\.count).reduce(0, +)) / Double(words.count)
        var generator = SplitMix64(seed: 4)
        func randomWord() -> String {
            while true {
                let entry = words[Int(generator.next() % UInt64(words.count))]
                if !entry.isEmpty { return entry[Int(generator.next() % UInt64(entry.count))] }
            }
        }
        var queries: [Query] = [
            Query(text: "coffee", scored: [["coffee"]]), Query(text: "the", scored: [["the"]]),
            Query(text: "th", scored: [["th"]]), Query(text: "\"the the\"", scored: [["the", "the"]]),
            // Phrases whose last word starts many tokens, counted side by side ("the the the the"
            // holds "the th" three times).
            Query(text: "\"the t\"", scored: [["the", "t"]]), Query(text: "\"the th\"", scored: [["the", "th"]]),
            Query(text: "\"the the t\"", scored: [["the", "the", "t"]]),
            // A word that starts another scores too, though the longer one alone decides the
            // matches; a word twice scores once.
            Query(text: "th the", scored: [["th"], ["the"]]), Query(text: "the th the", scored: [["the"], ["th"]]),
        ]
        while queries.count < 60 {
            let (a, b) = (randomWord(), randomWord())
            switch queries.count % 5 {
            case 0: queries.append(Query(text: a, scored: [[a]]))
            case 1: queries.append(Query(text: "\(a) \(b)", scored: a == b ? [[a]] : [[a], [b]]))
            case 2: queries.append(Query(text: "\(a) OR \(b)", scored: a == b ? [[a]] : [[a], [b]]))
            case 3: queries.append(Query(text: "\(a) -\(b)", scored: [[a]]))
            default:
                let prefix = String(String.UnicodeScalarView(a.unicodeScalars.prefix(2)))
                var distinct = Set<[String]>()
                let scored = [[prefix], [b], ["the"]].filter { distinct.insert($0).inserted }
                queries.append(Query(text: "(\(prefix) OR \(b)) the", scored: scored))
            }
        }
        for query in queries {
            let newest = try store.journal.search(query.text, page: PageRequest(limit: 0))
            // The reference: BM25 over each matched entry's words, ties newest first.
            let matched = query.scored.map { term in words.count { WordsReference.frequency(of: term, in: $0) > 0 } }
            let scored: [(id: EntryID, score: Double)] = newest.entries.map { entry in
                let entryWords = words[Int(entry.id.number) - 1]
                var score = 0.0
                for (term, matched) in zip(query.scored, matched) {
                    let tf = Double(WordsReference.frequency(of: term, in: entryWords))
                    guard tf > 0 else { continue }
                    let idf = log(1 + (Double(words.count) - Double(matched) + 0.5) / (Double(matched) + 0.5))
                    score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * Double(entryWords.count) / average))
                }
                return (entry.id, score)
            }
            let expected = scored.enumerated().sorted {
                abs($0.element.score - $1.element.score) > 1e-9
                    ? $0.element.score > $1.element.score : $0.offset < $1.offset
            }.map(\.element)
            for strategy in [StrategyID.token, .prefix] {
                let ranked = try store.journal.search(
                    SearchQuery(query.text), strategy: SearchStrategies[strategy],
                    page: PageRequest(limit: 0, order: .relevance))
                #expect(ranked.total == newest.total, "\(strategy) \(query.text)")
                #expect(ranked.entries.map(\.id) == expected.map(\.id), "\(strategy) \(query.text)")
                let scores = try #require(ranked.scores)
                #expect(
                    zip(scores, expected.map(\.score)).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) },
                    "\(strategy) \(query.text)")
                // Page by page (the best of many, ties at a page's end newest first), the same order.
                var paged: [EntryID] = []
                var pagedScores: [Double] = []
                for offset in stride(from: 0, to: min(ranked.total, 40), by: 8) {
                    let page = try store.journal.search(
                        SearchQuery(query.text), strategy: SearchStrategies[strategy],
                        page: PageRequest(limit: 8, offset: offset, order: .relevance))
                    paged += page.entries.map(\.id)
                    pagedScores += page.scores ?? []
                }
                #expect(paged == Array(ranked.entries.map(\.id).prefix(40)), "\(strategy) \(query.text) by pages")
                #expect(pagedScores == Array(scores.prefix(40)), "\(strategy) \(query.text) by pages")
                // A filter leaves the journal's counts as they are: the entries it lets through keep
                // their scores and their order.
                guard let middle = newest.entries.dropFirst(newest.entries.count / 2).first else { continue }
                let filtered = try store.journal.search(
                    query.text, strategy: SearchStrategies[strategy], page: PageRequest(limit: 0, order: .relevance),
                    filter: EntryFilter(from: middle.date))
                let kept = zip(ranked.entries, scores).filter { $0.0.date >= middle.date }
                #expect(filtered.entries.map(\.id) == kept.map(\.0.id), "\(strategy) \(query.text) filtered")
                #expect(filtered.scores == kept.map(\.1), "\(strategy) \(query.text) filtered")
            }
        }
    }
}
