import Foundation
import Testing

@testable import JournalKit

/// The plan stage: what a query becomes before any store is read.
@Suite struct SearchPlanTests {
    private let utc = TimeZone(identifier: "UTC")!
    private let now = Date(timeIntervalSince1970: 1_732_492_800)  // 2024-11-25

    private func plan(_ text: String?, filter: EntryFilter = .none, earliest: String? = nil) throws -> SearchPlan {
        let query =
            try text.map { try SearchQuery($0, filter: filter, now: now, timeZone: utc) } ?? SearchQuery(filter: filter)
        return try SearchPlan(query, family: .wordPrefix, earliestDate: earliest.map { JournalDate(iso8601: $0)! })
    }

    /// A word that starts another word of the query adds no condition; each other word stays,
    /// once, in the query's order.
    @Test func leavesOutWordsThatStartAnotherWord() {
        #expect(SearchPlan.needed(["the", "t"]) == ["the"])
        #expect(SearchPlan.needed(["t", "the", "th"]) == ["the"])
        #expect(SearchPlan.needed(["th", "th"]) == ["th"])
        #expect(SearchPlan.needed(["東", "東京", "京"]) == ["東京", "京"])
        #expect(SearchPlan.needed(["abc", "abd", "ab"]) == ["abc", "abd"])
        #expect(SearchPlan.needed(["walk", "talk"]) == ["walk", "talk"])
        #expect(SearchPlan.needed(["a"]) == ["a"])
    }

    /// Tags, dates and the star, from the text or the filters, are the restriction; the words
    /// are what is left, each group simplified.
    @Test func splitsTheRestrictionFromTheWords() throws {
        let plan = try plan(#"#travel "new yo" -work t"#, filter: EntryFilter(tags: ["trip"], starred: true))
        #expect(plan.restriction == .all([.tag("travel"), .starred, .exactTag("trip")]))
        #expect(plan.words == .all([.word("t"), .phrase(["new", "yo"]), .not(.word("work"))]))
        #expect(plan.mainStoreConditions == [.tag("travel"), .starred, .exactTag("trip")])
    }

    /// A query of one word is that word, so that a strategy can take its shortcut for it.
    @Test func aWordWithinFiltersIsAWordAlone() throws {
        let plan = try plan("coffee", filter: EntryFilter(from: JournalDate(iso8601: "2024-01-01T00:00:00Z")))
        #expect(plan.words == .word("coffee"))
        #expect(plan.dateBounds.from == JournalDate(iso8601: "2024-01-01T00:00:00Z")!.microseconds)
        #expect(plan.dateBounds.until == nil)
    }

    /// The date bounds are those every match meets: the spans of the text and the filters
    /// intersected.
    @Test func dateBoundsIntersectEverySpan() throws {
        let plan = try plan("from:2024 tea", filter: EntryFilter(until: JournalDate(iso8601: "2024-06-01T00:00:00Z")))
        #expect(plan.dateBounds.from == JournalDate(iso8601: "2024-01-01T00:00:00Z")!.microseconds)
        #expect(plan.dateBounds.until == JournalDate(iso8601: "2024-06-01T00:00:00Z")!.microseconds)
    }

    /// On this day becomes one span a year back to the earliest entry's year, bound when the
    /// plan is made; a journal without entries has no such day.
    @Test func onThisDayIsBoundToTheJournalsYears() throws {
        let plan = try plan("on:this-day", earliest: "2021-03-01T00:00:00Z")
        let day = { (year: Int) in
            QueryCondition.dated(
                from: JournalDate(iso8601: "\(year)-11-25T00:00:00Z")!.microseconds,
                until: JournalDate(iso8601: "\(year)-11-26T00:00:00Z")!.microseconds)
        }
        #expect(plan.restriction == .any([day(2023), day(2022), day(2021)]))
        #expect(plan.words == nil)
        #expect(try self.plan("on:this-day").restriction == .any([]))
    }

    /// A text the syntax can't read is refused when the plan is made, for a word-prefix
    /// strategy; a substring strategy looks for the text as it is.
    @Test func aTextTheSyntaxCantReadIsAUsageErrorForWordPrefixOnly() throws {
        let query = try SearchQuery("?!", now: now, timeZone: utc)
        #expect(throws: JournalError.self) { try SearchPlan(query, family: .wordPrefix, earliestDate: nil) }
        let substring = try SearchPlan(query, family: .substring, earliestDate: nil)
        #expect(substring.needle == "?!")
        #expect(substring.words == nil)
    }

    /// A query is read once, by whoever makes it: every strategy's search, the counts, the
    /// actions' selection and the highlighter take the value and never read the text again.
    @Test func aSearchReadsItsQueryOnce() throws {
        let store = try TemporaryJournal()
        try store.journal.add(
            NewEntry(date: JournalDate(iso8601: "2023-11-25T09:00:00Z")!, text: "café #trip on this day"))
        try store.journal.add(NewEntry(text: "crème brûlée"))
        let readings = SearchQuery.Readings()
        try SearchQuery.$readings.withValue(readings) {
            let query = try SearchQuery("caf on:this-day OR crème", filter: EntryFilter(tags: ["trip"]))
            for strategy in SearchStrategies.all {
                let results = try store.journal.search(query, strategy: strategy)
                _ = results.entries.map {
                    MatchHighlighter(query: query, highlighting: strategy.highlighting).ranges(in: $0.text)
                }
            }
            _ = try store.journal.entryIDs(query)
            _ = try store.journal.tags(query)
            _ = try store.journal.entryCounts(by: .year, query)
        }
        #expect(readings.total == 1)
    }
}
