import JournalKit

/// What `journal bench` measured: for each journal size, import, warm and cold search, and
/// sizes, each next to SQLite FTS5 measured in the same run.
struct BenchmarkReport {
    /// Cold start: whole processes answering one query, median of several runs each.
    struct ColdQuery {
        let query: String
        /// `journal search QUERY --limit 20`.
        let journalSeconds: Double
        /// The `sqlite3` shell answering the same FTS5 query (count and newest 20), if installed.
        let sqliteSeconds: Double?
    }

    struct Size {
        let entries: Int
        let inputBytes: Int
        /// `journal import` as a separate process: wall time and peak resident memory.
        let importSeconds: Double
        let importPeakBytes: Int
        /// FTS5 indexing the same entries' text alone (the peer's build in the main store).
        let fts5IndexSeconds: Double?
        let mainStoreBytes: Int
        let searchStoreBytes: Int
        let fts5IndexBytes: Int?
        let prefixTableBytes: Int?
        let warm: ComparisonReport
        let cold: [ColdQuery]

        var fts5Warm: ComparisonReport.StrategyResult? { warm.strategy("fts5") }

        /// `result`'s and fts5's latencies over the queries both were timed on.
        func versusFTS5(_ result: ComparisonReport.StrategyResult) -> (mine: LatencySummary, fts5: LatencySummary)? {
            guard let fts5 = fts5Warm else { return nil }
            let shared = result.timedQueries.intersection(fts5.timedQueries)
            guard !shared.isEmpty else { return nil }
            return (result.latency(on: shared), fts5.latency(on: shared))
        }
    }

    let date: JournalDate
    let seed: UInt64
    let runs: Int
    let coldRuns: Int
    let budgetSeconds: Double
    var queries: [ComparisonQuery]
    var sizes: [Size]
}
