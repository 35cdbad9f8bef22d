import Foundation
import JournalText
import Testing

@testable import JournalKit

/// Counts over what a search finds: tags of the entries found, and entries by year and month,
/// each answer worked out by hand from the table.
@Suite struct JournalCountsTests {
    /// p1…p7: date (UTC), text, given tags.
    static let entries: [(String, String, [String])] = [
        ("2022-12-31T23:30:00Z", "new year's eve in tokyo #Trip", []),  // 1: 2023-01-01 in Paris
        ("2023-01-15T10:00:00Z", "tokyo museums #trip #Art", []),  // 2
        ("2023-03-02T10:00:00Z", "work in paris", ["Trip"]),  // 3
        ("2023-03-20T10:00:00Z", "japan again #Japan", []),  // 4
        ("2024-06-01T10:00:00Z", "kyoto #trip #japan", []),  // 5
        ("2024-06-02T10:00:00Z", "home", []),  // 6
        ("2024-08-01T10:00:00Z", "japan photos #art", ["Trip"]),  // 7
    ]
    static let utc = TimeZone(identifier: "UTC")!
    static let paris = TimeZone(identifier: "Europe/Paris")!

    private func journal() throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        for (date, text, tags) in Self.entries {
            try store.journal.add(NewEntry(date: JournalDate(iso8601: date)!, text: text, tags: tags))
        }
        return store
    }

    @Test func theTagsOfWhatIsFound() throws {
        let store = try journal()
        let journal: Journal = store.journal
        func counts(_ query: String?, _ filter: EntryFilter = .none) throws -> [String] {
            try journal.tags(query.map { try SearchQuery($0, filter: filter) } ?? SearchQuery(filter: filter)).map {
                "\($0.tag.written) \($0.entries)"
            }
        }
        // trip: Trip written on p1, trip on p2 and p5, Trip given on p3 and p7: Trip 3 uses, trip 2.
        #expect(try counts(nil) == ["Trip 5", "Art 2", "Japan 2"])
        #expect(try counts("tokyo") == ["Trip 2", "Art 1"])
        #expect(
            try counts("#trip OR japan", try EntryFilter(from: JournalDate(iso8601: "2024-01-01T00:00:00Z")!)) == [
                "Trip 2", "Art 1", "Japan 1",
            ])
        #expect(try counts(nil, try EntryFilter(tags: ["japan"])) == ["Japan 2", "Trip 1"])
        #expect(try counts("nothing").isEmpty)
        for strategy in SearchStrategies.all where strategy.family == .wordPrefix {
            #expect(
                try journal.tags(SearchQuery("japan -#art"), strategy: strategy).map(\.name) == ["japan", "trip"],
                "\(strategy)")
        }
    }

    @Test func entriesByYearAndMonthInATimeZone() throws {
        let store = try journal()
        let journal: Journal = store.journal
        func counts(
            _ period: CountingPeriod, _ query: String? = nil, in zone: TimeZone = JournalCountsTests.utc
        ) throws -> [String] {
            try journal.entryCounts(
                by: period, query.map { try SearchQuery($0) } ?? SearchQuery(filter: .none), timeZone: zone
            ).map {
                "\($0.label) \($0.entries)"
            }
        }
        #expect(try counts(.year) == ["2022 1", "2023 3", "2024 3"])
        #expect(try counts(.year, in: Self.paris) == ["2023 4", "2024 3"], "eve of 2023 at 23:30 UTC is 2023 in Paris")
        #expect(try counts(.month, "japan") == (try monthsOfJapan()))
        #expect(try counts(.year, "nothing").isEmpty)
        let march = try journal.entryCounts(by: .month, SearchQuery("paris OR japan"), timeZone: Self.utc)
        #expect(march.first?.start.iso8601 == "2023-03-01T00:00:00Z")
        #expect(march.first?.entries == 2)
    }

    /// japan finds p4, p5, p7: 2023-03, then every month to 2024-08 at 0 but 2024-06 and 2024-08.
    private func monthsOfJapan() throws -> [String] {
        var months: [String] = []
        for year in 2023...2024 {
            for month in 1...12 {
                let label = String(format: "%04d-%02d", year, month)
                guard label >= "2023-03", label <= "2024-08" else { continue }
                months.append("\(label) \(["2023-03": 1, "2024-06": 1, "2024-08": 1][label] ?? 0)")
            }
        }
        return months
    }
}
