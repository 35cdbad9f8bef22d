import Foundation
import Testing

@testable import JournalKit

/// The days on this day looks back on, worked out by hand from a calendar.
@Suite struct OnThisDayTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let paris = TimeZone(identifier: "Europe/Paris")!

    private static func day(_ text: String) -> String { String(text.prefix(10)) }

    @Test func theSameMonthAndDayOfEachEarlierYearNewestFirst() {
        let day = OnThisDay(JournalDate(iso8601: "2026-11-25T15:00:00Z")!, timeZone: Self.utc)
        #expect((day.year, day.month, day.day) == (2026, 11, 25))
        let days = day.days(backTo: 2023)
        #expect(days.map(\.year) == [2025, 2024, 2023])
        #expect(days.map(\.from.iso8601) == ["2025-11-25T00:00:00Z", "2024-11-25T00:00:00Z", "2023-11-25T00:00:00Z"])
        #expect(days.map(\.until.iso8601) == ["2025-11-26T00:00:00Z", "2024-11-26T00:00:00Z", "2023-11-26T00:00:00Z"])
        #expect(day.days(backTo: 2026).isEmpty, "no earlier year")
    }

    @Test func twentyNinthOfFebruaryFallsBackToTheTwentyEighth() {
        let day = OnThisDay(JournalDate(iso8601: "2028-02-29T12:00:00Z")!, timeZone: Self.utc)
        #expect(
            day.days(backTo: 2023).map { Self.day($0.from.iso8601) } == [
                "2027-02-28", "2026-02-28", "2025-02-28", "2024-02-29", "2023-02-28",
            ])
        let twentyEighth = OnThisDay(JournalDate(iso8601: "2025-02-28T12:00:00Z")!, timeZone: Self.utc)
        #expect(
            twentyEighth.days(backTo: 2024).map { Self.day($0.from.iso8601) } == ["2024-02-28"],
            "the 28th stays the 28th")
    }

    @Test func daysStartAndEndInTheirTimeZone() {
        // 23:30 UTC on 29 March 2026 is already the 30th in Paris; 30 March 2025 is the day Paris
        // moved to summer time.
        let day = OnThisDay(JournalDate(iso8601: "2026-03-29T23:30:00Z")!, timeZone: Self.paris)
        #expect((day.month, day.day) == (3, 30))
        let days = day.days(backTo: 2025)
        #expect(days.map(\.from.iso8601) == ["2025-03-29T23:00:00Z"], "midnight in Paris, winter time")
        #expect(
            days.map(\.until.iso8601) == ["2025-03-30T22:00:00Z"], "a 23-hour day: the next midnight is in summer time")
    }

    @Test func yearsAgoCountsInTheDaysTimeZone() {
        let day = OnThisDay(JournalDate(iso8601: "2026-01-01T10:00:00Z")!, timeZone: Self.paris)
        #expect(day.yearsAgo(JournalDate(iso8601: "2025-01-01T10:00:00Z")!) == 1)
        #expect(day.yearsAgo(JournalDate(iso8601: "2015-12-31T23:30:00Z")!) == 10, "already 2016 in Paris")
    }
}
