import Foundation
import JournalText
import Testing

@testable import JournalBench
@testable import JournalKit

/// On a generated journal and generated queries, every strategy returns exactly what the
/// semantics say, computed the slow, obvious way: so the strategies of a family agree.
@Suite struct FamilyAgreementTests {
    static let entryCount = 2_000

    private static func journal() throws -> (TemporaryJournal, [Entry]) {
        let store = try TemporaryJournal()
        var generated = SyntheticJournal(count: entryCount, seed: 42)
        generated.tailWords = 3_000
        let lines =
            generated.map { entry in
                let text = entry.text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"")
                return #"{"date":"\#(entry.date.iso8601)","text":"\#(text)"}"#
            } + [
                #"{"text":"Crème BRÛLÉE à 50% (a.b) off_sale back\\slash \\u0000 Straße İstanbul ǅ ﬁ Ａ cafe\u0301"}"#
            ]
        let file = store.directory.url.appendingPathComponent("generated.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        _ = try store.journal.importJSONLines(from: JSONLinesReader(path: file.path))
        return (store, try store.allEntries())
    }

    /// Substrings of entries (whole words, parts of words, across spaces, punctuation), then
    /// the same in upper case and with diacritics removed, and metacharacters.
    private static func substringQueries(from entries: [Entry], count: Int) -> [String] {
        var random = SplitMix64(seed: 99)
        var queries = [
            "%", "_", ".", "(", "\\", "a.b", "50%", "é", "É", "ss", "ß", "İ", "i", "ǆ", "fi", "a", "東", "ー", "。",
            "Crème", "CREME",
            "brulee",
        ]
        while queries.count < count {
            let scalars = Array(entries[random.below(entries.count)].text.unicodeScalars)
            let length = 1 + random.below(min(12, scalars.count))
            let start = random.below(scalars.count - length + 1)
            var query = String(String.UnicodeScalarView(scalars[start..<start + length]))
            switch random.below(4) {
            case 0: query = query.uppercased()
            case 1: query = Fold.d.apply(to: query)
            default: break
            }
            if !query.trimmingWhiteSpace.isEmpty { queries.append(query) }
        }
        return queries
    }

    private static func wordQueries(from entries: [Entry], count: Int) -> [String] {
        var random = SplitMix64(seed: 7)
        var queries = [
            "t", "th", "the", "a", "é", "東", "東京", "ß", "strasse", "İst", "ǅ", "fi", "cafe", "Crème brû", "zzzz",
            "the t", "t the", "th th",
            "a an and x",
        ]
        while queries.count < count {
            let words = WordBreaker.words(in: entries[random.below(entries.count)].text)
            guard !words.isEmpty else { continue }
            let picked = (0..<(1 + random.below(2))).map { _ in words[random.below(words.count)] }
            queries.append(picked.map { String($0.prefix(1 + random.below(max(1, $0.count)))) }.joined(separator: " "))
        }
        return queries
    }

    private static func newestFirst(_ entries: [Entry]) -> [Int64] {
        entries.sorted { ($0.date, $0.id.number) > ($1.date, $1.id.number) }.map(\.id.number)
    }

    @Test func substringStrategiesAgreeWithTheSemantics() throws {
        let (store, entries) = try Self.journal()
        // A code-point substring of UTF-8 text is a byte substring: Data's search (Foundation is
        // built optimized even in a debug build) is a fast reference.
        let folded: [Fold?: [Data]] = Dictionary(
            uniqueKeysWithValues: ([nil] + Fold.allCases.map(Optional.some)).map { fold in
                (fold, entries.map { Data((fold?.apply(to: $0.text) ?? $0.text).utf8) })
            })
        // Every substring strategy of the registry, with the fold its equivalence names.
        let folds: [String: Fold?] = ["substring": nil, "substring[c]": .c, "substring[d]": .d, "substring[cd]": .cd]
        let strategies: [(SearchStrategy, Fold?)] = SearchStrategies.all.filter { $0.family == .substring }.compactMap {
            strategy in
            guard let fold = folds[strategy.equivalence] else {
                Issue.record("no reference for \(strategy.name) (equivalence \(strategy.equivalence))")
                return nil
            }
            return (strategy, fold)
        }
        for query in Self.substringQueries(from: entries, count: 150) {
            for (strategy, fold) in strategies {
                let needle = Data((fold?.apply(to: query.trimmingWhiteSpace) ?? query.trimmingWhiteSpace).utf8)
                guard !needle.isEmpty else { continue }
                let expected = Self.newestFirst(
                    zip(entries, folded[fold]!).filter { $0.1.range(of: needle) != nil }.map(\.0))
                let found = try store.journal.search(query, strategy: strategy, page: PageRequest(limit: 0))
                #expect(found.total == expected.count, "\(strategy) \(query.debugDescription)")
                #expect(found.entries.map(\.id.number) == expected, "\(strategy) \(query.debugDescription)")
            }
        }
    }

    /// Every page, unfiltered and limited to the middle of the journal's dates, from a journal
    /// that reads dates from the store and from one that keeps their order in memory (as a live
    /// search does): a short word's list is then counted from its segments and paged by walking
    /// from the newest entry, a rare word's matches sorted, and both agree with the semantics.
    @Test func wordPrefixStrategiesAgreeWithTheSemantics() throws {
        let (store, entries) = try Self.journal()
        let typing = try Journal(directory: store.directory)
        try typing.prepareForTyping()
        let tokens = entries.map { Tokens.of(text: $0.text) }
        let dates = entries.map(\.date).sorted()
        let middle = try EntryFilter(from: dates[dates.count * 3 / 10], until: dates[dates.count * 7 / 10])
        for query in Self.wordQueries(from: entries, count: 250) {
            let words = WordBreaker.uniqueWords(in: Fold.canonical(query))
            guard !words.isEmpty else { continue }
            let matching = zip(entries, tokens).filter { _, tokens in
                words.allSatisfy { word in tokens.contains { $0.unicodeScalars.starts(with: word.unicodeScalars) } }
            }.map(\.0)
            for filter in [EntryFilter.none, middle] {
                let expected = Self.newestFirst(
                    matching.filter { entry in
                        filter.from.map { entry.date >= $0 } != false && filter.until.map { entry.date < $0 } != false
                    })
                let pages = try [
                    PageRequest(limit: 0), PageRequest(limit: 7), PageRequest(limit: 7, offset: 12),
                    PageRequest(limit: 1, offset: max(0, expected.count - 1)),
                ]
                for strategy in SearchStrategies.all where strategy.equivalence == SearchFamily.wordPrefix.rawValue {
                    for (journal, held) in [(store.journal!, "dates read"), (typing, "order in memory")] {
                        for page in pages {
                            let found = try journal.search(query, strategy: strategy, page: page, filter: filter)
                            let wanted = expected.dropFirst(page.offset).prefix(
                                page.limit == 0 ? expected.count : page.limit)
                            let context =
                                "\(strategy) \(query) \(held) \(page) \(filter == .none ? "unfiltered" : "middle dates")"
                            #expect(found.total == expected.count, "\(context)")
                            #expect(found.entries.map(\.id.number) == Array(wanted), "\(context)")
                        }
                    }
                }
            }
        }
    }
}
