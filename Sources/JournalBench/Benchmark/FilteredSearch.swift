import Foundation
import JournalKit

/// One strategy timed on the same queries with a filter and without, in one process: what a
/// filter costs or saves. A filter should make a search's work smaller, never larger.
public struct FilteredSearch: Sendable {
    /// The strategy timed.
    public let strategy: StrategyID
    /// What the filter keeps, for a person: "2016", "2016-03".
    public let filter: String
    /// Entries the filter lets through.
    public let passing: Int
    /// Entries in the journal.
    public let entries: Int
    /// Queries timed both ways (a strategy that refuses a query, or runs out of budget, times
    /// fewer).
    public let queries: [String]
    /// Each query's median time without the filter.
    public let unlimited: [Double]
    /// Each query's median time with it.
    public let limited: [Double]

    /// Median over the queries of each query's median, without and with the filter.
    public var unlimitedMedian: Double { LatencySummary(unlimited).median }
    /// Median over the queries of each query's median with the filter.
    public var limitedMedian: Double { LatencySummary(limited).median }
    /// The filtered time over the unfiltered, at the median.
    public var ratio: Double { unlimitedMedian > 0 ? limitedMedian / unlimitedMedian : 0 }
    /// The largest per-query ratio.
    public var worstRatio: Double { zip(limited, unlimited).map { $1 > 0 ? $0 / $1 : 0 }.max() ?? 0 }
    /// The share of the journal that passes.
    public var share: Double { entries > 0 ? Double(passing) / Double(entries) : 0 }

    /// Times `strategy` on `queries` (exact total and newest 20), `runs` times each after one
    /// untimed run, with `filter` and without; stops starting queries after `budgetSeconds`.
    public static func measure(
        _ strategy: SearchStrategy, filter: EntryFilter, describedAs description: String, queries: [String], runs: Int,
        budgetSeconds: Double, in journal: Journal
    ) throws(JournalError) -> FilteredSearch {
        let passing = try journal.list(PageRequest(limit: 1), filter: filter).total
        let entries = try journal.list(PageRequest(limit: 1)).total
        var timed: [String] = [], unlimited: [Double] = [], limited: [Double] = []
        let started = ContinuousClock.now
        for query in queries where secondsSince(started) < budgetSeconds {
            func median(_ filter: EntryFilter) throws(JournalError) -> Double {
                _ = try journal.search(query, strategy: strategy, page: PageRequest(limit: 20), filter: filter)
                var times: [Double] = []
                for _ in 0..<runs {
                    let start = ContinuousClock.now
                    _ = try journal.search(query, strategy: strategy, page: PageRequest(limit: 20), filter: filter)
                    times.append(secondsSince(start))
                }
                return LatencySummary(times).median
            }
            do {
                let without = try median(.none)
                let with = try median(filter)
                timed.append(query)
                unlimited.append(without)
                limited.append(with)
            } catch  where error.kind == .usage {
                continue
            }
        }
        return FilteredSearch(
            strategy: strategy.id, filter: description, passing: passing, entries: entries, queries: timed,
            unlimited: unlimited,
            limited: limited)
    }
}
