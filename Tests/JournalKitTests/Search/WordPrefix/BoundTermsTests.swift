import Foundation
import Testing

@testable import JournalKit

@Suite struct BoundTermsTests {
    /// Every strategy that answers through the word-prefix search (those that rank by relevance)
    /// resolves each term of a query once per search, whatever asks for it: the restriction, the
    /// count, the page, a phrase's match and relevance's weights.
    @Test func aSearchLooksEachTermUpOnce() throws {
        let store = try TemporaryJournal()
        for (index, text) in [
            "the quick brown fox", "the brown dog sleeps", "a quick thought on theory", "brown bread the way it was",
            "thermal quick brown", "nothing of that",
        ].enumerated() {
            try store.journal.add(
                NewEntry(date: JournalDate(microseconds: Int64(index + 1) * 86_400_000_000), text: text))
        }
        let queries = [
            "the", "th", "quick", "quick brown", "\"quick bro\"", "\"the br\" OR thought", "brown -dog",
            "qu \"brown f\" th",
        ]
        let filters = [EntryFilter.none, try EntryFilter(from: JournalDate(microseconds: 2 * 86_400_000_000))]
        let strategies = SearchStrategies.all.filter { $0.family == .wordPrefix && $0.ranksByRelevance }
        #expect(strategies.count >= 2)
        for strategy in strategies {
            for text in queries {
                for filter in filters {
                    for order in [SearchOrder.newest, .relevance] {
                        let counts = BoundTerms.LookupCounts()
                        let results = try BoundTerms.$lookups.withValue(counts) {
                            try store.journal.search(
                                SearchQuery(text, filter: filter), strategy: strategy,
                                page: PageRequest(order: order))
                        }
                        #expect(results.total >= 0)
                        for kind in [BoundTerms.LookupCounts.Kind.postings, .tokens, .phrase] {
                            let repeated = counts.lookups(kind).filter { $0.value > 1 }
                            #expect(
                                repeated.isEmpty,
                                "\(strategy.name) \(order) \"\(text)\" looked up \(kind) again: \(repeated)")
                        }
                        #expect(!counts.lookups(.postings).isEmpty || !counts.lookups(.phrase).isEmpty)
                        if strategy.id == .token {
                            #expect(
                                counts.lookups(.tokens).isEmpty,
                                "token \(order) \"\(text)\" scanned a word's tokens besides its postings")
                        }
                    }
                }
            }
        }
    }

    /// A word whose postings are its tokens' (every word with `token`, a long one with `prefix`)
    /// serves relevance's frequencies from the same lookup.
    @Test func relevanceTakesAWordsTokensFromItsPostings() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "quick quicker quickest"))
        try store.journal.add(NewEntry(text: "quick"))
        for (strategy, word) in [(SearchStrategies[.token], "qu"), (SearchStrategies[.prefix], "quick")] {
            let counts = BoundTerms.LookupCounts()
            let results = try BoundTerms.$lookups.withValue(counts) {
                try store.journal.search(
                    SearchQuery(word), strategy: strategy, page: PageRequest(order: .relevance))
            }
            #expect(results.total == 2)
            #expect(counts.lookups(.postings) == [word: 1])
            #expect(counts.lookups(.tokens).isEmpty, "\(strategy.name) looked \(word)'s tokens up again")
        }
    }
}
