import JournalKit

/// What `journal bench` measured: for each journal size, import, warm and cold search, and
/// sizes, each next to SQLite FTS5 measured in the same run.
public struct BenchmarkReport {
    /// Cold start: whole processes answering one query, median of several runs each.
    public struct ColdQuery {
        public let query: String
        /// `journal search QUERY --limit 20`.
        public let journalSeconds: Double
        /// The `sqlite3` shell answering the same FTS5 query (count and newest 20), if installed.
        public let sqliteSeconds: Double?
    }

    public struct Size {
        public let entries: Int
        public let inputBytes: Int
        /// `journal import` as a separate process: wall time and peak resident memory.
        public let importSeconds: Double
        public let importPeakBytes: Int
        /// FTS5 indexing the same entries' text alone (the peer's build in the main store).
        public let fts5IndexSeconds: Double?
        public let mainStoreBytes: Int
        public let searchStoreBytes: Int
        public let fts5IndexBytes: Int?
        public let prefixTableBytes: Int?
        public let warm: ComparisonReport
        public let cold: [ColdQuery]

        public var fts5Warm: ComparisonReport.StrategyResult? { warm.strategy("fts5") }

        /// `result`'s and fts5's latencies over the queries both were timed on.
        public func versusFTS5(_ result: ComparisonReport.StrategyResult) -> (mine: LatencySummary, fts5: LatencySummary)? {
            guard let fts5 = fts5Warm else { return nil }
            let shared = result.timedQueries.intersection(fts5.timedQueries)
            guard !shared.isEmpty else { return nil }
            return (result.latency(on: shared), fts5.latency(on: shared))
        }
    }

    public let date: JournalDate
    public let seed: UInt64
    public let runs: Int
    public let coldRuns: Int
    public let budgetSeconds: Double
    public var queries: [ComparisonQuery]
    public var sizes: [Size]

    public init(date: JournalDate, seed: UInt64, runs: Int, coldRuns: Int, budgetSeconds: Double, queries: [ComparisonQuery], sizes: [Size])
    {
        self.date = date
        self.seed = seed
        self.runs = runs
        self.coldRuns = coldRuns
        self.budgetSeconds = budgetSeconds
        self.queries = queries
        self.sizes = sizes
    }
}
