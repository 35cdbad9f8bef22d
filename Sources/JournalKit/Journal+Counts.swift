import Foundation

/// Counts over what a search finds: the tags of the entries found, and how many fall in each
/// year or month. `query` nil counts every entry that passes `filter`.
extension Journal {
    /// Every tag of the entries found, with how many of them have it, most used first (ties by
    /// name), each in the form the journal shows it in.
    public func tags(
        query: String?, strategy: SearchStrategy = SearchStrategies.standard, filter: EntryFilter = .none
    ) throws(JournalError) -> [TagCount] {
        if query == nil && filter.isEmpty { return try tags() }
        return try main.tagCounts(of: matchingNumbers(query: query, strategy: strategy, filter: filter)).map {
            TagCount(tag: $0.tag, entries: $0.entries)
        }
    }

    /// How many of the entries found fall in each `period` (in `timeZone`), oldest first, from
    /// the first period that has one to the last, the periods between included with 0.
    public func entryCounts(
        by period: CountingPeriod, query: String? = nil, strategy: SearchStrategy = SearchStrategies.standard,
        filter: EntryFilter = .none, timeZone: TimeZone = .current
    ) throws(JournalError) -> [PeriodCount] {
        let dates =
            query == nil
            ? try main.dates(passing: resolvedFilter(filter))
            : try main.dates(of: matchingNumbers(query: query, strategy: strategy, filter: filter))
        return PeriodCount.counting(dates, by: period, timeZone: timeZone)
    }

    /// The entries `query` finds with `strategy` within `filter` (every entry that passes
    /// `filter` when `query` is nil), newest first: what a command acts on or counts, without
    /// reading the entries themselves.
    public func entryIDs(
        query: String?, strategy: SearchStrategy = SearchStrategies.standard, filter: EntryFilter = .none
    ) throws(JournalError) -> [EntryID] {
        try matchingNumbers(query: query, strategy: strategy, filter: filter).map { EntryID(storeID: storeID, number: $0) }
    }

    /// The numbers of ``entryIDs(query:strategy:filter:)``.
    func matchingNumbers(query: String?, strategy: SearchStrategy, filter: EntryFilter) throws(JournalError) -> [Int64] {
        guard let query else { return try main.numbers(passing: resolvedFilter(filter)) }
        let found = try answer(query, strategy: strategy, page: PageRequest(limit: 0), filter: filter, progress: nil, cancellation: nil)
        return found.answer.page.filter { $0.storeID == storeID }.map(\.number)
    }
}

/// The periods ``Journal/entryCounts(by:query:strategy:filter:timeZone:)-2i405`` counts by.
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
        guard var start = calendar.dateInterval(of: component, for: JournalDate(microseconds: earliest).date)?.start else { return [] }
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
