import Foundation
import Testing

@testable import JournalKit

/// Every filter with every strategy of the registry: the same entries pass whatever the
/// strategy, the total counts only them, and paging stays newest first.
@Suite struct FilterTests {
    /// Entry n (1-based) is the n-th: its date, text, given tags and star.
    static let entries: [(date: String, text: String, tags: [String], starred: Bool)] = [
        ("2023-05-01T10:00:00Z", "walk by the river #rain", [], false),  // 1
        ("2023-12-31T23:59:59Z", "walk at midnight", ["Night"], true),  // 2
        ("2024-01-01T00:00:00Z", "walk in the new year #rain", [], true),  // 3
        ("2024-05-01T08:00:00Z", "walk to the café", ["cafe"], false),  // 4
        ("2024-05-31T23:00:00Z", "walk home late #rain @ana", [], true),  // 5
        ("2024-06-01T00:00:00Z", "walk in june", [], false),  // 6
    ]

    private func journal() throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        for entry in Self.entries {
            try store.journal.add(
                NewEntry(
                    date: JournalDate(iso8601: entry.date)!, text: entry.text, tags: entry.tags, starred: entry.starred)
            )
        }
        return store
    }

    private static func date(_ text: String) -> JournalDate { JournalDate(iso8601: text)! }

    /// Filters and the entries they let through, newest first, worked out by hand from the table.
    static let cases: [(name: String, filter: EntryFilter, expected: [Int64])] = [
        ("none", .none, [6, 5, 4, 3, 2, 1]),
        ("from 2024", try! EntryFilter(from: date("2024-01-01T00:00:00Z")), [6, 5, 4, 3]),
        ("until 2024", try! EntryFilter(until: date("2024-01-01T00:00:00Z")), [2, 1]),
        (
            "May 2024", try! EntryFilter(from: date("2024-05-01T00:00:00Z"), until: date("2024-06-01T00:00:00Z")),
            [5, 4]
        ),
        ("tag rain", try! EntryFilter(tags: ["#Rain"]), [5, 3, 1]),
        ("tags rain and ana", try! EntryFilter(tags: ["rain", "@ana"]), [5]),
        ("given tag", try! EntryFilter(tags: ["café"]), [4]),
        ("starred", try! EntryFilter(starred: true), [5, 3, 2]),
        (
            "starred rain in 2024", try! EntryFilter(from: date("2024-01-01T00:00:00Z"), tags: ["rain"], starred: true),
            [5, 3]
        ),
        ("nothing passes", try! EntryFilter(tags: ["absent"]), []),
        ("on 1 May, UTC", try! EntryFilter(onThisDay: OnThisDay(date("2025-05-01T12:00:00Z"), timeZone: utc)), [4, 1]),
        (
            "on 1 May, a year before",
            try! EntryFilter(onThisDay: OnThisDay(date("2024-05-01T12:00:00Z"), timeZone: utc)), [1]
        ),
        (
            "on 1 May in Paris", try! EntryFilter(onThisDay: OnThisDay(date("2025-05-01T12:00:00Z"), timeZone: paris)),
            [4, 1]
        ),
        (
            "on 31 December, UTC", try! EntryFilter(onThisDay: OnThisDay(date("2025-12-31T12:00:00Z"), timeZone: utc)),
            [2]
        ),
        (
            "on 31 December in New York",
            try! EntryFilter(onThisDay: OnThisDay(date("2025-12-31T17:00:00Z"), timeZone: newYork)), [3, 2]
        ),
        (
            "on 1 June in Paris", try! EntryFilter(onThisDay: OnThisDay(date("2025-06-01T12:00:00Z"), timeZone: paris)),
            [6, 5]
        ),
        (
            "on 1 June in Paris, tagged rain",
            try! EntryFilter(tags: ["rain"], onThisDay: OnThisDay(date("2025-06-01T12:00:00Z"), timeZone: paris)), [5]
        ),
    ]
    static let utc = TimeZone(identifier: "UTC")!
    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    @Test func everyStrategyFindsOnlyWhatPasses() throws {
        let store = try journal()
        for strategy in SearchStrategies.all {
            for (name, filter, expected) in Self.cases {
                let found = try store.journal.search(
                    "walk", strategy: strategy, page: PageRequest(limit: 0), filter: filter)
                #expect(found.total == expected.count, "\(strategy) \(name)")
                #expect(found.entries.map(\.id.number) == expected, "\(strategy) \(name)")
                let second = try store.journal.search(
                    "walk", strategy: strategy, page: PageRequest(limit: 1, offset: 1), filter: filter)
                #expect(second.total == expected.count, "\(strategy) \(name): the total ignores the page")
                #expect(second.entries.map(\.id.number) == Array(expected.dropFirst().prefix(1)), "\(strategy) \(name)")
            }
        }
    }

    @Test func listAndRegexSearchTakeTheSameFilters() throws {
        let store = try journal()
        for (name, filter, expected) in Self.cases {
            let listed = try store.journal.list(PageRequest(limit: 0), filter: filter)
            #expect(listed.total == expected.count, "\(name)")
            #expect(listed.entries.map(\.id.number) == expected, "\(name)")
            let regex = try store.journal.search(regex: "w.lk", page: PageRequest(limit: 0), filter: filter)
            #expect(regex.entries.map(\.id.number) == expected, "regex \(name)")
        }
    }

    @Test func aFilterNeverAddsEntriesAStrategyDoesNotFind() throws {
        let store = try journal()
        for strategy in SearchStrategies.all {
            let found = try store.journal.search(
                "rain", strategy: strategy, page: PageRequest(limit: 0), filter: EntryFilter(starred: true))
            #expect(found.entries.map(\.id.number) == [5, 3], "\(strategy)")
        }
    }
}
