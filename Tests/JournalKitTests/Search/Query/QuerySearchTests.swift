import Foundation
import Testing

@testable import JournalKit

/// The query syntax answered by every word-prefix strategy of the registry, on a small journal
/// in several languages, each answer worked out by hand from the table.
@Suite struct QuerySearchTests {
    /// Entry n (1-based) is the n-th: its date, text, given tags and star.
    static let entries: [(date: String, text: String, tags: [String], starred: Bool)] = [
        ("2016-03-03T10:00:00Z", "Old notes about New York and the harbour", [], false),  // 1
        ("2024-05-01T10:00:00Z", "We flew to New York in May #travel/usa", [], true),  // 2
        ("2024-05-02T10:00:00Z", "Newer York is not new; a new Yorkshire pudding #food", [], false),  // 3
        ("2024-05-03T10:00:00Z", "Tokyo trip, rainy day in Kyoto #travel", [], true),  // 4
        ("2024-05-04T10:00:00Z", "東京タワーに行きました #travel/japan", [], false),  // 5
        ("2024-05-05T10:00:00Z", "Ещё раз в Москве, rainy again", [], false),  // 6
        ("2024-05-06T10:00:00Z", "Café crème with Straße friends #work", [], false),  // 7
        ("2024-05-07T10:00:00Z", "worked late, new york office", ["work"], false),  // 8
    ]

    /// Queries and the entries they find, newest first; `fts5` says whether FTS5's tokenizer
    /// (unicode61, which neither splits Japanese nor folds ß to ss or ё to е) finds the same.
    static let cases: [(query: String, expected: [Int64], fts5: Bool)] = [
        ("new york", [8, 3, 2, 1], true),
        ("\"new york\"", [8, 3, 2, 1], true),
        ("\"new york\" -yorkshire", [8, 2, 1], true),
        ("\"new yorks", [3], true),
        ("\"york new\"", [], true),
        ("new -yorkshire", [8, 2, 1], true),
        ("new -york", [], true),
        ("tokyo OR kyoto", [4], true),
        ("tokyo OR москве", [6, 4], true),
        ("#travel", [5, 4, 2], true),
        ("@travel/japan", [5], true),
        ("#trav", [], true),
        ("#work", [8, 7], true),
        ("#Travel york", [2], true),
        ("is:starred", [4, 2], true),
        ("is:starred -#travel/usa", [4], true),
        ("on:2016", [1], true),
        ("-on:2016 york", [8, 3, 2], true),
        ("from:2024-05-04 to:2024-05-06", [7, 6, 5], true),
        ("rainy -(tokyo OR kyoto)", [6], true),
        ("\"rainy day\"", [4], true),
        ("\"rainy ag", [6], true),
        ("-rainy", [8, 7, 5, 3, 2, 1], true),
        ("tokyo OR", [], true),
        ("\"new york\" OR #food", [8, 3, 2, 1], true),
        ("(#travel OR #work) is:starred", [4, 2], true),
        ("-#travel -#work", [6, 3, 1], true),
        ("\"OR\"", [], true),
        ("\"東京タワーに\"", [5], false),
        ("\"タワー 東京\"", [], true),
        ("\"ещё раз\" OR \"new york\"", [8, 6, 3, 2, 1], false),
        ("creme strasse", [7], false),
        ("\"café crème\" -\"crème with\"", [], true),
    ]

    private static func journal() throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        for entry in entries {
            try store.journal.add(
                NewEntry(
                    date: JournalDate(iso8601: entry.date)!, text: entry.text, tags: entry.tags, starred: entry.starred)
            )
        }
        return store
    }

    @Test func everyWordPrefixStrategyFindsTheHandWorkedEntries() throws {
        let store = try Self.journal()
        let strategies = SearchStrategies.all.filter { $0.family == .wordPrefix }
        #expect(strategies.contains(SearchStrategies[.prefix]) && strategies.count >= 3)
        for strategy in strategies {
            for (query, expected, fts5Agrees) in Self.cases where strategy.id != .fts5 || fts5Agrees {
                let found = try store.journal.search(query, strategy: strategy, page: PageRequest(limit: 0))
                #expect(found.total == expected.count, "\(strategy) \(query)")
                #expect(found.entries.map(\.id.number) == expected, "\(strategy) \(query)")
                let page = try store.journal.search(query, strategy: strategy, page: PageRequest(limit: 2, offset: 1))
                #expect(page.total == expected.count, "\(strategy) \(query) page")
                #expect(
                    page.entries.map(\.id.number) == Array(expected.dropFirst().prefix(2)), "\(strategy) \(query) page")
            }
        }
    }

    /// The query's own conditions and the command's filters must all hold.
    @Test func theQueryCombinesWithTheFilters() throws {
        let store = try Self.journal()
        let starred = try EntryFilter(starred: true)
        let may = try EntryFilter(
            from: JournalDate(iso8601: "2024-05-02T00:00:00Z")!, until: JournalDate(iso8601: "2024-05-07T00:00:00Z")!)
        let work = try EntryFilter(tags: ["work"])
        let cases: [(String, EntryFilter, [Int64])] = [
            ("#travel", starred, [4, 2]),
            ("-rainy", may, [7, 5, 3]),
            ("\"new york\" OR tokyo", may, [4, 3]),
            ("-#travel", work, [8, 7]),
            ("new OR café", work, [8, 7]),
            ("on:2016 OR is:starred", may, [4]),
        ]
        for strategy in SearchStrategies.all where strategy.family == .wordPrefix {
            for (query, filter, expected) in cases {
                let found = try store.journal.search(
                    query, strategy: strategy, page: PageRequest(limit: 0), filter: filter)
                #expect(found.entries.map(\.id.number) == expected, "\(strategy) \(query)")
                #expect(found.total == expected.count, "\(strategy) \(query)")
            }
        }
    }

    /// `on:this-day` through every word-prefix strategy, as of today in this process's time
    /// zone: entries at noon on today's month and day in earlier years, and on the days around.
    @Test func onThisDayFindsTodayInEarlierYears() throws {
        let store = try TemporaryJournal()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let today = calendar.dateComponents([.year, .month, .day], from: Date())
        func noon(yearsAgo: Int, days: Int = 0) -> JournalDate {
            var parts = today
            parts.year = today.year! - yearsAgo
            parts.day = min(today.day!, 28)
            parts.hour = 12
            let date = calendar.date(byAdding: .day, value: days, to: calendar.date(from: parts)!)!
            return JournalDate(date)
        }
        // When today is after the 28th, "the same day" is the 28th only in the test's own dates:
        // the test then looks for the 28th.
        let onThe28th = today.day! > 28
        let dated: [(JournalDate, String)] = [
            (noon(yearsAgo: 3), "walk three years ago"),  // 1
            (noon(yearsAgo: 1, days: -1), "walk the day before, a year ago"),  // 2
            (noon(yearsAgo: 1), "walk a year ago #rain"),  // 3
            (noon(yearsAgo: 1, days: 1), "walk the day after, a year ago"),  // 4
            (noon(yearsAgo: 0), "walk today"),  // 5
        ]
        for (date, text) in dated { try store.journal.add(NewEntry(date: date, text: text)) }
        let cases: [(String, [Int64])] =
            onThe28th
            ? [] : [("on:this-day", [3, 1]), ("walk on:this-day -#rain", [1]), ("walk -on:this-day", [5, 4, 2])]
        for strategy in SearchStrategies.all where strategy.family == .wordPrefix {
            for (query, expected) in cases {
                let found = try store.journal.search(query, strategy: strategy, page: PageRequest(limit: 0))
                #expect(found.entries.map(\.id.number) == expected, "\(strategy) \(query)")
                #expect(found.total == expected.count, "\(strategy) \(query)")
            }
        }
        let listed = try store.journal.list(PageRequest(limit: 0), filter: EntryFilter(onThisDay: OnThisDay(.now)))
        if !onThe28th { #expect(listed.entries.map(\.id.number) == [3, 1]) }
    }

    /// A phrase is checked against the words as they are now: an edit that moves the words
    /// apart, or deletes the entry, takes it out.
    @Test func phrasesFollowEdits() throws {
        let store = try Self.journal()
        let id = EntryID(storeID: store.journal.storeID, number: 8)
        try store.journal.edit(id, text: "worked late, york office new")
        try store.journal.delete(EntryID(storeID: store.journal.storeID, number: 1))
        for strategy in SearchStrategies.all where strategy.family == .wordPrefix {
            let found = try store.journal.search("\"new york\"", strategy: strategy, page: PageRequest(limit: 0))
            #expect(found.entries.map(\.id.number) == [3, 2], "\(strategy)")
        }
        let report = try store.journal.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    /// A phrase search holds no read open after it: the same journal's next write catches up
    /// and its next search sees the new entry. (A phrase check once left its statement
    /// stepping, keeping a reader on an old snapshot, and the next write's catch-up looped.)
    @Test(.hangGuard) func aPhraseSearchLeavesNothingOpen() throws {
        let store = try Self.journal()
        for strategy in SearchStrategies.all where strategy.family == .wordPrefix {
            _ = try store.journal.search("\"new york\"", strategy: strategy, page: PageRequest(limit: 1))
        }
        try store.journal.add(NewEntry(text: "New York again, in the snow"))
        try store.journal.add(NewEntry(text: "and New York once more"))
        for strategy in SearchStrategies.all where strategy.family == .wordPrefix {
            let found = try store.journal.search("\"new york\"", strategy: strategy, page: PageRequest(limit: 0))
            #expect(found.total == 6, "\(strategy)")
        }
    }

    @Test func highlightsThePhraseWholeAndNeverWhatIsLeftOut() throws {
        func shown(_ query: String, in text: String) throws -> [String] {
            MatchHighlighter(query: try SearchQuery(query), highlighting: .wordPrefix).ranges(in: text).map {
                String(text[$0])
            }
        }
        let text = "We flew to New York in May, not to new Yorkshire. New  york!"
        #expect(try shown("\"new york\" -may", in: text) == ["New York", "new Yorkshire", "New  york"])
        #expect(try shown("new -york", in: text) == ["New", "new", "New"])
        #expect(try shown("\"to new\" OR flew", in: text) == ["flew", "to New", "to new"])
        #expect(try shown("-(we OR flew) may", in: text) == ["May"])
        #expect(try shown("#travel is:starred", in: text) == [])
    }
}
