import Foundation
import GRDB
import JournalKit

/// `journal list --on-this-day` on a large journal, in one process: the same month and day of
/// every earlier year, read through the date index (one range a year), next to the newest
/// entries listed without a filter (the floor) and to the scan a plain SQL user would write
/// (`strftime('%m-%d', …)` on every entry's local date), on the same store.
public struct OnThisDayCost: Sendable {
    /// The days looked back on: the 15th of each month of the journal's last year, and 29 February.
    public let days: [String]
    /// Entries found on each day (exact totals).
    public let found: [Int]
    /// Each day's median time: the total and the newest 20, through the journal.
    public let onThisDay: [Double]
    /// Each day's median time for the same answer by a scan of every entry's date.
    public let scan: [Double]
    /// The median time of a plain list of the newest 20 with the total.
    public let newestList: Double
    /// A whole `journal list --on-this-day` process, median over the cold runs (first day).
    public let process: Double

    /// The journal's median over the days.
    public var median: Double { LatencySummary(onThisDay).median }
    /// The scan's median over the days.
    public var scanMedian: Double { LatencySummary(scan).median }

    /// Times each day `runs` times after one untimed run; the store's main file is read by the
    /// scan through its own read-only connection, and the process `coldRuns` times.
    static func measure(
        journal: Journal, store: URL, executable: String, runs: Int, coldRuns: Int
    ) throws -> OnThisDayCost {
        let newest = try journal.list(PageRequest(limit: 1)).entries.first?.date ?? .now
        let year = Calendar(identifier: .gregorian).component(.year, from: newest.date)
        let days = (1...12).map { String(format: "%04d-%02d-15", year, $0) } + ["2024-02-29"]
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(
            path: store.appendingPathComponent("journal.sqlite").path, configuration: configuration)
        defer { try? queue.close() }
        func median(_ body: () throws -> Void) throws -> Double {
            try body()
            var times: [Double] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                try body()
                times.append(secondsSince(start))
            }
            return LatencySummary(times).median
        }
        var found: [Int] = [], timed: [Double] = [], scanned: [Double] = []
        for day in days {
            let onThisDay = OnThisDay(try DatePhrase(day).start)
            let filter = try EntryFilter(onThisDay: onThisDay)
            found.append(try journal.list(PageRequest(limit: 20), filter: filter).total)
            timed.append(try median { _ = try journal.list(PageRequest(limit: 20), filter: filter) })
            let monthDay = String(day.suffix(5))
            let before = String(onThisDay.year)
            // 29 February takes 28 February of the years without a 29th, as the journal does.
            let local = "strftime('%m-%d', date / 1000000, 'unixepoch', 'localtime')"
            let year = "strftime('%Y', date / 1000000, 'unixepoch', 'localtime')"
            let condition = """
                (\(local) = ?1 OR (?1 = '02-29' AND \(local) = '02-28'
                    AND strftime('%d', \(year) || '-03-01', '-1 day') = '28')) AND \(year) < ?2
                """
            var scanTotal = 0
            scanned.append(
                try median {
                    try queue.read { db in
                        scanTotal =
                            try Int.fetchOne(
                                db, sql: "SELECT count(*) FROM entry WHERE \(condition)", arguments: [monthDay, before])
                            ?? 0
                        _ = try Row.fetchAll(
                            db,
                            sql:
                                "SELECT n, date, text FROM entry WHERE \(condition) ORDER BY date DESC, n DESC LIMIT 20",
                            arguments: [monthDay, before])
                    }
                })
            guard scanTotal == found.last else {
                throw JournalError(
                    .store, "on \(day), the journal found \(found.last ?? 0) entries and the scan \(scanTotal)")
            }
        }
        let newestList = try median { _ = try journal.list(PageRequest(limit: 20)) }
        var processes: [Double] = []
        for _ in 0..<coldRuns {
            let outcome = try ChildProcess.run(
                executable, ["--store", store.path, "list", "--on-this-day=\(days[0])", "--limit", "20", "--json"])
            guard outcome.status == 0 else {
                throw JournalError(.store, "journal list --on-this-day failed (exit status \(outcome.status))")
            }
            processes.append(outcome.seconds)
        }
        return OnThisDayCost(
            days: days, found: found, onThisDay: timed, scan: scanned, newestList: newestList,
            process: LatencySummary(processes).median)
    }
}
