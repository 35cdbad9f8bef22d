import JournalKit

/// What `journal bench` measured: for each journal size, import, warm and cold search, and
/// sizes, each next to SQLite FTS5 measured in the same run.
public struct BenchmarkReport {
    /// Cold start: whole processes answering one query, median of several runs each.
    public struct ColdQuery {
        /// The query.
        public let query: String
        /// `journal search QUERY --limit 20`.
        public let journalSeconds: Double
        /// The `sqlite3` shell answering the same FTS5 query (count and newest 20), if installed.
        public let sqliteSeconds: Double?
    }

    /// Everything measured at one journal size.
    public struct Size {
        /// Entries in the journal.
        public let entries: Int
        /// Bytes of its JSON Lines input.
        public let inputBytes: Int
        /// `journal import` as a separate process: wall time and peak resident memory.
        public let importSeconds: Double
        /// Peak resident memory of the import process.
        public let importPeakBytes: Int
        /// FTS5 indexing the same entries' text alone (the peer's build in the main store).
        public let fts5IndexSeconds: Double?
        /// Bytes of the main store after the import.
        public let mainStoreBytes: Int
        /// Bytes of the search store after the import.
        public let searchStoreBytes: Int
        /// Bytes of the FTS5 index, once built.
        public let fts5IndexBytes: Int?
        /// Bytes of the in-memory prefix table.
        public let prefixTableBytes: Int?
        /// Every strategy timed in one process.
        public let warm: ComparisonReport
        /// Strategies timed with a date filter and without.
        public let filtered: [FilteredSearch]
        /// Whole processes, per query.
        public let cold: [ColdQuery]

        /// The FTS5 peer's warm figures.
        public var fts5Warm: ComparisonReport.StrategyResult? { warm.strategy("fts5") }

        /// `result`'s and fts5's latencies over the queries both were timed on.
        public func versusFTS5(_ result: ComparisonReport.StrategyResult) -> (mine: LatencySummary, fts5: LatencySummary)? {
            guard let fts5 = fts5Warm else { return nil }
            let shared = result.timedQueries.intersection(fts5.timedQueries)
            guard !shared.isEmpty else { return nil }
            return (result.latency(on: shared), fts5.latency(on: shared))
        }
    }

    /// When it was measured.
    public let date: JournalDate
    /// The seed of every generated journal.
    public let seed: UInt64
    /// Timed warm runs per query.
    public let runs: Int
    /// Whole processes per query.
    public let coldRuns: Int
    /// Seconds a strategy may spend per size.
    public let budgetSeconds: Double
    /// The query set, chosen from the first journal.
    public var queries: [ComparisonQuery]
    /// Each size measured, smallest first.
    public var sizes: [Size]

    /// A report of these settings, filled in size by size.
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
