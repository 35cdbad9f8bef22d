import Foundation

/// A day of the year looked back on: the same month and day in every earlier year, in a time
/// zone. What `journal list --on-this-day` and the query field `on:this-day` ask for.
///
/// 29 February falls back to 28 February in years that have no 29th.
///
/// ```swift
/// let day = OnThisDay(JournalDate.now)
/// let filter = try EntryFilter(onThisDay: day)
/// for entry in try journal.list(filter: filter).entries {
///     print(day.yearsAgo(entry.date), "years ago:", entry.text)
/// }
/// ```
public struct OnThisDay: Sendable, Hashable, Codable {
    /// The day's year: entries of earlier years are looked back on.
    public let year: Int
    /// Its month, 1 to 12.
    public let month: Int
    /// Its day of the month.
    public let day: Int
    /// The time zone its days start and end in.
    public let timeZone: TimeZone

    /// The day `date` falls on in `timeZone`.
    public init(_ date: JournalDate, timeZone: TimeZone = .current) {
        let parts = Self.calendar(timeZone).dateComponents([.year, .month, .day], from: date.date)
        year = parts.year ?? 1970
        month = parts.month ?? 1
        day = parts.day ?? 1
        self.timeZone = timeZone
    }

    /// How many years before this day's year `date` falls, in its time zone: 1 for last year.
    public func yearsAgo(_ date: JournalDate) -> Int {
        year - (Self.calendar(timeZone).dateComponents([.year], from: date.date).year ?? year)
    }

    /// The same day in each year from the year before back to `earliestYear`, newest first,
    /// each as the span from its first instant to the next day's.
    public func days(backTo earliestYear: Int) -> [(year: Int, from: JournalDate, until: JournalDate)] {
        let calendar = Self.calendar(timeZone)
        return stride(from: year - 1, through: earliestYear, by: -1).compactMap { year in
            let day = min(day, Int(CivilCalendar.daysIn(month: Int64(month), year: Int64(year))))
            guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
                let end = calendar.date(byAdding: .day, value: 1, to: start)
            else { return nil }
            return (year, JournalDate(start), JournalDate(end))
        }
    }

    private static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
