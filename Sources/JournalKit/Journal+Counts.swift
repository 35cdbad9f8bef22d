import Foundation

/// Counts over what a search finds: the tags of the entries found, and how many fall in each
/// year or month. A query of filters alone counts every entry that passes them.
extension Journal {
    /// Every tag of the entries `query` finds, with how many of them have it, most used first
    /// (ties by name), each in the form the journal shows it in.
    public func tags(
        _ query: SearchQuery, strategy: SearchStrategy = SearchStrategies.standard
    ) throws(JournalError) -> [TagCount] {
        if query.text == nil && query.filter.isEmpty { return try tags() }
        return try main.tagCounts(of: matchingNumbers(query, strategy: strategy)).map {
            TagCount(tag: $0.tag, entries: $0.entries)
        }
    }

    /// How many of the entries `query` finds fall in each `period` (in `timeZone`), oldest
    /// first, from the first period that has one to the last, the periods between included
    /// with 0.
    public func entryCounts(
        by period: CountingPeriod, _ query: SearchQuery = SearchQuery(filter: .none),
        strategy: SearchStrategy = SearchStrategies.standard,
        timeZone: TimeZone = .current
    ) throws(JournalError) -> [PeriodCount] {
        let dates =
            query.text == nil
            ? try main.dates(meeting: plan(query, family: strategy.family).restriction)
            : try main.dates(of: matchingNumbers(query, strategy: strategy))
        return PeriodCount.counting(dates, by: period, timeZone: timeZone)
    }

    /// The entries `query` finds with `strategy`, newest first: what a command acts on or
    /// counts, without reading the entries themselves.
    public func entryIDs(
        _ query: SearchQuery, strategy: SearchStrategy = SearchStrategies.standard
    ) throws(JournalError) -> [EntryID] {
        try main.ids(numbered: matchingNumbers(query, strategy: strategy))
    }

    /// The numbers of ``entryIDs(_:strategy:)``.
    func matchingNumbers(_ query: SearchQuery, strategy: SearchStrategy) throws(JournalError) -> [Int64] {
        try answer(query, strategy: strategy, page: PageRequest(limit: 0), progress: nil, cancellation: nil).numbers
    }
}

/// The periods ``Journal/entryCounts(by:_:strategy:timeZone:)-2vheu`` counts by.
public enum CountingPeriod: String, Sendable, CaseIterable, Codable {
    case year, month
}

/// How many entries fall in one year or month.
public struct PeriodCount: Sendable, Equatable, Codable {
    /// The year.
    public let year: Int
    /// The month, 1 to 12, when counting by month.
    public let month: Int?
    /// The period's first instant, in the time zone counted in.
    public let start: JournalDate
    /// Entries dated in it.
    public let entries: Int

    /// "2024", "2024-05".
    public var label: String { month.map { String(format: "%04d-%02d", year, $0) } ?? String(format: "%04d", year) }

    /// `dates` counted by `period`: the periods from the earliest date's to the latest's, each
    /// date placed by a binary search among the periods' starts.
    static func counting(_ dates: [Int64], by period: CountingPeriod, timeZone: TimeZone) -> [PeriodCount] {
        guard let earliest = dates.min(), let latest = dates.max() else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let component: Calendar.Component = period == .year ? .year : .month
        guard var start = calendar.dateInterval(of: component, for: JournalDate(microseconds: earliest).date)?.start
        else { return [] }
        var starts: [(year: Int, month: Int, start: Int64)] = []
        while JournalDate(start).microseconds <= latest {
            let parts = calendar.dateComponents([.year, .month], from: start)
            starts.append((parts.year ?? 0, parts.month ?? 1, JournalDate(start).microseconds))
            guard let next = calendar.date(byAdding: component, value: 1, to: start) else { break }
            start = next
        }
        var counts = Array(repeating: 0, count: starts.count)
        for date in dates {
            var low = 0, high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle].start <= date { low = middle } else { high = middle - 1 }
            }
            counts[low] += 1
        }
        return starts.indices.map { index in
            PeriodCount(
                year: starts[index].year, month: period == .month ? starts[index].month : nil,
                start: JournalDate(microseconds: starts[index].start), entries: counts[index])
        }
    }
}
