import Foundation
import Testing

@testable import JournalKit

@Suite struct WordPrefixSearchTests {
    /// A short word that most entries match, over several posting segments, with a date filter
    /// that lets whole segments through and cuts others: the total counted from the segments
    /// and the pages walked from the newest entry are the semantics' answer, with the dates
    /// read from the store and with their order in memory.
    @Test func aShortWordOfMostEntriesIsCountedAndPagedFromItsSegments() throws {
        let store = try TemporaryJournal()
        let day: Int64 = 86_400_000_000
        // Entry n is dated day n, but every 50th is backdated 30 days; two in three hold `alpha`
        // and `apple`, two tokens, so that their key `a` has postings of its own.
        let dated: [(number: Int64, date: Int64, text: String)] = (Int64(1)...9_000).map { number in
            let date = number * day - (number % 50 == 0 ? 30 * day : 0)
            return (number, date, number % 3 == 0 ? "gamma" : "alpha apple beta")
        }
        let lines = dated.map { entry in
            #"{"date":"\#(JournalDate(microseconds: entry.date).iso8601)","text":"\#(entry.text)"}"#
        }
        let file = store.directory.url.appendingPathComponent("dated.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        _ = try store.journal.importJSONLines(from: JSONLinesReader(path: file.path))
        #expect(
            try store.journal.search.pool.read { db in
                let key = try SearchStore.prefixKeyID("a", in: db) ?? 0
                return try PostingSegments.prefixKeys.segmentCounts(owner: key, in: db).count
            } >= 3)
        let typing = try Journal(directory: store.directory)
        try typing.prepareForTyping()
        for (from, until) in [(nil, nil), (2_000, 7_000), (2_100, 2_101), (8_990, nil), (nil, 10)] as [(Int64?, Int64?)]
        {
            let filter = try EntryFilter(
                from: from.map { JournalDate(microseconds: $0 * day) },
                until: until.map { JournalDate(microseconds: $0 * day) })
            let passing = dated.filter { entry in
                entry.text.hasPrefix("a") && from.map { entry.date >= $0 * day } != false
                    && until.map { entry.date < $0 * day } != false
            }
            let expected = passing.sorted { ($0.date, $0.number) > ($1.date, $1.number) }.map(\.number)
            for journal in [store.journal!, typing] {
                for page in try [
                    PageRequest(limit: 20), PageRequest(limit: 20, offset: 1_000),
                    PageRequest(limit: 3, offset: max(0, expected.count - 2)),
                ] {
                    let found = try journal.search("a", strategy: SearchStrategies[.prefix], page: page, filter: filter)
                    #expect(
                        found.total == expected.count,
                        "\(String(describing: from))–\(String(describing: until)) \(page)")
                    #expect(found.entries.map(\.id.number) == Array(expected.dropFirst(page.offset).prefix(page.limit)))
                }
            }
        }
    }

    /// Phrases whose last word is short, among thousands of entries holding their words (dated
    /// out of number order): asked for a page before its total, every word-prefix strategy
    /// answers the page the counted search shows, and a total that counts only up to the page's
    /// end (dense matches, walked), or the exact total (matches too sparse for the walk, or
    /// candidates few enough to count), with the dates read from the store and from memory.
    @Test func aPhraseSlowToCountHasTheCountedPageBeforeItsTotal() throws {
        let store = try TemporaryJournal()
        let day: Int64 = 86_400_000_000
        // `ta` starts more tokens than get a reader each: a phrase ending in it reads its key.
        let many = ["tab", "tack", "tag", "tail", "take", "tale", "talk", "tall", "tame", "tan", "tank", "tap", "tar"]
        let words =
            ["the", "tea", "table", "tiger", "then", "a", "cat", "sat", "on", "mat", "to", "the", "the"] + many
            + ["tape", "task", "taste", "tax", "taxi"]
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let lines = (Int64(1)...6_000).map { number in
            let date = number * day - (number % 7 == 0 ? 400 * day : 0)
            let text = (0..<8).map { _ in words[next(words.count)] }.joined(separator: " ")
            return #"{"date":"\#(JournalDate(microseconds: date).iso8601)","text":"\#(text)"}"#
        }
        let file = store.directory.url.appendingPathComponent("phrases.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        _ = try store.journal.importJSONLines(from: JSONLinesReader(path: file.path))
        let typing = try Journal(directory: store.directory)
        try typing.prepareForTyping()
        let strategies = SearchStrategies.all.filter { $0.equivalence == SearchFamily.wordPrefix.rawValue }
        #expect(strategies.count >= 2)
        let queries = [
            #""the t"#, #""the ta"#, #""the the t"#, #""a cat s"#, #""the t" cat"#, #""on the" "the t"#,
            #""tiger tiger tiger t"#, #""mat mat m"#,
        ]
        var (walked, counted) = (0, 0)
        for strategy in strategies {
            for journal in [store.journal!, typing] {
                for text in queries {
                    for filter in [EntryFilter.none, try EntryFilter(from: JournalDate(microseconds: 3_000 * day))] {
                        for page in try [PageRequest(limit: 20), PageRequest(limit: 10, offset: 40)] {
                            let query = try SearchQuery(text, filter: filter)
                            let exact = try journal.search(query, strategy: strategy, page: page)
                            let first = try journal.search(
                                query, strategy: strategy, page: page, progress: nil, cancellation: nil,
                                totalMayFollow: true)
                            let label = "\(strategy.name) \(text) \(page)"
                            #expect(first.results.entries.map(\.id) == exact.entries.map(\.id), "\(label)")
                            if first.totalFollows {
                                walked += 1
                                #expect(first.results.total == page.offset + page.limit, "\(label)")
                                #expect(exact.total >= first.results.total, "\(label)")
                            } else {
                                counted += 1
                                #expect(first.results.total == exact.total, "\(label)")
                            }
                        }
                    }
                }
            }
        }
        #expect(walked > 0)
        #expect(counted > 0)
    }
}
