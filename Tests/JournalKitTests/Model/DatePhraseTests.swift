import Foundation
import Testing

@testable import JournalKit

/// Dates as people type them, against a fixed "now" (Wednesday 2024-05-15, 14:30 local) in
/// two time zones; every answer worked out by hand, in UTC. A day named relative to today is
/// filed at the current time of day; a calendar date at its first instant.
@Suite struct DatePhraseTests {
    static func now(_ zone: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar.date(from: DateComponents(year: 2024, month: 5, day: 15, hour: 14, minute: 30))!
    }

    private func read(_ text: String, in zone: String) throws -> (start: String, end: String, instant: String) {
        let phrase = try DatePhrase(text, now: Self.now(zone), timeZone: TimeZone(identifier: zone)!)
        return (phrase.start.iso8601, phrase.end.iso8601, phrase.instant.iso8601)
    }

    /// Paris is UTC+2 in May, UTC+1 from November to March.
    static let paris = [
        ("now", "2024-05-15T12:30:00Z", "2024-05-15T12:30:00.000001Z", "2024-05-15T12:30:00Z"),
        ("today", "2024-05-14T22:00:00Z", "2024-05-15T22:00:00Z", "2024-05-15T12:30:00Z"),
        ("Yesterday", "2024-05-13T22:00:00Z", "2024-05-14T22:00:00Z", "2024-05-14T12:30:00Z"),
        ("3 days ago", "2024-05-11T22:00:00Z", "2024-05-12T22:00:00Z", "2024-05-12T12:30:00Z"),
        ("2 weeks ago", "2024-04-30T22:00:00Z", "2024-05-01T22:00:00Z", "2024-05-01T12:30:00Z"),
        ("1 month ago", "2024-04-14T22:00:00Z", "2024-04-15T22:00:00Z", "2024-04-15T12:30:00Z"),
        ("1 year ago", "2023-05-14T22:00:00Z", "2023-05-15T22:00:00Z", "2023-05-15T12:30:00Z"),
        ("wednesday", "2024-05-14T22:00:00Z", "2024-05-15T22:00:00Z", "2024-05-15T12:30:00Z"),
        ("mon", "2024-05-12T22:00:00Z", "2024-05-13T22:00:00Z", "2024-05-13T12:30:00Z"),
        ("last wednesday", "2024-05-07T22:00:00Z", "2024-05-08T22:00:00Z", "2024-05-08T12:30:00Z"),
        ("last monday", "2024-05-12T22:00:00Z", "2024-05-13T22:00:00Z", "2024-05-13T12:30:00Z"),
        ("may 1", "2024-04-30T22:00:00Z", "2024-05-01T22:00:00Z", "2024-04-30T22:00:00Z"),
        ("1 May 2023", "2023-04-30T22:00:00Z", "2023-05-01T22:00:00Z", "2023-04-30T22:00:00Z"),
        ("June 1st", "2023-05-31T22:00:00Z", "2023-06-01T22:00:00Z", "2023-05-31T22:00:00Z"),
        ("may 2024", "2024-04-30T22:00:00Z", "2024-05-31T22:00:00Z", "2024-04-30T22:00:00Z"),
        ("2024-05", "2024-04-30T22:00:00Z", "2024-05-31T22:00:00Z", "2024-04-30T22:00:00Z"),
        ("december", "2023-11-30T23:00:00Z", "2023-12-31T23:00:00Z", "2023-11-30T23:00:00Z"),
        ("2023", "2022-12-31T23:00:00Z", "2023-12-31T23:00:00Z", "2022-12-31T23:00:00Z"),
        ("yesterday 9pm", "2024-05-14T19:00:00Z", "2024-05-14T19:00:00.000001Z", "2024-05-14T19:00:00Z"),
        ("yesterday 9:15 pm", "2024-05-14T19:15:00Z", "2024-05-14T19:15:00.000001Z", "2024-05-14T19:15:00Z"),
        ("2024-05-01 9:30", "2024-05-01T07:30:00Z", "2024-05-01T07:30:00.000001Z", "2024-05-01T07:30:00Z"),
        ("2024-05-01T09:30", "2024-05-01T07:30:00Z", "2024-05-01T07:30:00.000001Z", "2024-05-01T07:30:00Z"),
        ("2024-05-01", "2024-04-30T22:00:00Z", "2024-05-01T22:00:00Z", "2024-04-30T22:00:00Z"),
        ("2024-05-01T08:30:00Z", "2024-05-01T08:30:00Z", "2024-05-01T08:30:00.000001Z", "2024-05-01T08:30:00Z"),
        ("2024-05-01T08:30:00+05:00", "2024-05-01T03:30:00Z", "2024-05-01T03:30:00.000001Z", "2024-05-01T03:30:00Z"),
        ("9pm", "2024-05-15T19:00:00Z", "2024-05-15T19:00:00.000001Z", "2024-05-15T19:00:00Z"),
        ("21:05:30", "2024-05-15T19:05:30Z", "2024-05-15T19:05:30.000001Z", "2024-05-15T19:05:30Z"),
        // Now is Wednesday 15 May 2024; weeks start on Monday.
        ("this week", "2024-05-12T22:00:00Z", "2024-05-19T22:00:00Z", "2024-05-12T22:00:00Z"),
        ("last week", "2024-05-05T22:00:00Z", "2024-05-12T22:00:00Z", "2024-05-05T22:00:00Z"),
        ("this month", "2024-04-30T22:00:00Z", "2024-05-31T22:00:00Z", "2024-04-30T22:00:00Z"),
        ("last month", "2024-03-31T22:00:00Z", "2024-04-30T22:00:00Z", "2024-03-31T22:00:00Z"),
        ("last year", "2022-12-31T23:00:00Z", "2023-12-31T23:00:00Z", "2022-12-31T23:00:00Z"),
        ("This Year", "2023-12-31T23:00:00Z", "2024-12-31T23:00:00Z", "2023-12-31T23:00:00Z"),
    ]

    /// New York is UTC−4 in May, UTC−5 in winter.
    static let newYork = [
        ("today", "2024-05-15T04:00:00Z", "2024-05-16T04:00:00Z", "2024-05-15T18:30:00Z"),
        ("yesterday 9pm", "2024-05-15T01:00:00Z", "2024-05-15T01:00:00.000001Z", "2024-05-15T01:00:00Z"),
        ("last friday", "2024-05-10T04:00:00Z", "2024-05-11T04:00:00Z", "2024-05-10T18:30:00Z"),
        ("may 1", "2024-05-01T04:00:00Z", "2024-05-02T04:00:00Z", "2024-05-01T04:00:00Z"),
        ("2023", "2023-01-01T05:00:00Z", "2024-01-01T05:00:00Z", "2023-01-01T05:00:00Z"),
        ("last month", "2024-04-01T04:00:00Z", "2024-05-01T04:00:00Z", "2024-04-01T04:00:00Z"),
        ("jan 2024", "2024-01-01T05:00:00Z", "2024-02-01T05:00:00Z", "2024-01-01T05:00:00Z"),
        ("2024-05-01 12am", "2024-05-01T04:00:00Z", "2024-05-01T04:00:00.000001Z", "2024-05-01T04:00:00Z"),
    ]

    @Test(arguments: paris.map { ("Europe/Paris", $0) } + newYork.map { ("America/New_York", $0) })
    func readsPhrases(zone: String, _ phrase: (text: String, start: String, end: String, instant: String)) throws {
        let read = try read(phrase.text, in: zone)
        #expect(read.start == phrase.start, "\(zone): \(phrase.text)")
        #expect(read.end == phrase.end, "\(zone): \(phrase.text)")
        #expect(read.instant == phrase.instant, "\(zone): \(phrase.text)")
    }

    @Test(arguments: [
        "", "soon", "next week", "may 32", "32 may", "february 30 2023", "13pm", "25:00", "9:5", "yesterday 9pm 3",
        "now 9pm",
        "may 2024 9pm", "3 fortnights ago", "-1 days ago", "2024-13-01", "we", "2024-05-01 10:00zz", "last month 9pm",
        "last decade",
        "next month", "1010-09-24 09:14:00 )mzzz",
    ])
    func refusesAnythingElseQuotingIt(_ text: String) {
        let error = #expect(throws: JournalError.self) {
            try DatePhrase(text, now: Self.now("Europe/Paris"), timeZone: .gmt)
        }
        #expect(error?.kind == .usage)
        #expect(error?.message.contains("\"\(text)\"") == true, "\(error?.message ?? "")")
    }
}
