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

    /// FTS5 in its best setup (``FTS5BestSetup``) at one size: the peer every target is
    /// measured against.
    public struct FTS5Best {
        /// Seconds to build it from the entries (inserts and `optimize`).
        public let buildSeconds: Double
        /// Bytes of its file (index and text).
        public let bytes: Int
        /// Bytes of the index alone (the file without the text), when SQLite could tell.
        public let indexBytes: Int?
        /// The index's tables, largest first, when SQLite could tell.
        public let indexTables: [StoreTableSize]?
        /// Each query's median time in this process (count and newest 20 with their text).
        public let warm: [(query: String, seconds: Double)]
        /// Each query's median time as a whole `sqlite3` process, when sqlite3 is installed.
        public let cold: [(query: String, seconds: Double)]
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
        /// The most disk the journal's folder took during the import (nil in reports from
        /// before it was measured).
        public let importPeakDiskBytes: Int?
        /// FTS5 indexing the same entries' text alone (the peer's build in the main store).
        public let fts5IndexSeconds: Double?
        /// Distinct tokens in the journal: its vocabulary, which real text keeps growing.
        public let distinctTokens: Int
        /// Bytes of the main store after the import.
        public let mainStoreBytes: Int
        /// Bytes of the search store after the import, its prefix table's file included.
        public let searchStoreBytes: Int
        /// The search store's tables and indexes after the import, largest first, when SQLite
        /// could tell.
        public let searchStoreTables: [StoreTableSize]?
        /// Bytes of the FTS5 index, once built.
        public let fts5IndexBytes: Int?
        /// Bytes of the in-memory prefix table.
        public let prefixTableBytes: Int?
        /// Every strategy timed in one process.
        public let warm: ComparisonReport
        /// Strategies timed with a date filter and without.
        public let filtered: [FilteredSearch]
        /// FTS5 in its best setup, on the same queries.
        public let fts5Best: FTS5Best?
        /// The query syntax, by kind of query, beside FTS5's best setup.
        public let syntax: SyntaxSearch?
        /// Whole processes, per query.
        public let cold: [ColdQuery]
        /// The queries typed into the full-screen search, per strategy: key press to screen.
        public let typing: [TypingLatency]
        /// A single `add`, in this process and as a whole `journal add`, after everything else.
        public let writes: WriteLatency?
        /// The same journal encrypted, next to this one, when the run measured it.
        public let encryption: EncryptionCost?
        /// On this day of earlier years, through the date index and by a scan.
        public let onThisDay: OnThisDayCost?
        /// Searches in other processes while an import adds entries, beside FTS5 doing the same.
        public let duringImport: SearchDuringImport?
        /// The same undated file imported again (nil in reports from before it was measured).
        public let reimport: ReimportCost?
        /// Searches through `journal serve` next to the same searches in process (nil in reports
        /// from before it was measured).
        public let served: ServedSearchCost?
        /// A new device taking the entries in through `journal sync`, beside their import (nil
        /// in reports from before it was measured).
        public let syncTakeIn: SyncTakeInCost?

        /// The import's peak disk over the finished journal's stores.
        public var importPeakDiskRatio: Double? {
            importPeakDiskBytes.map { Double($0) / Double(max(1, mainStoreBytes + searchStoreBytes)) }
        }

        /// The cold processes for `the`, the word of most entries, when it was measured.
        public var coldThe: ColdQuery? { cold.first { $0.query == "the" } }

        /// The FTS5 peer's warm figures.
        public var fts5Warm: ComparisonReport.StrategyResult? { warm.strategy(.fts5) }

        /// The per-query medians of the strategy `id` and of FTS5's best setup, over the
        /// queries both answered.
        public func versusBestFTS5(_ id: StrategyID) -> (mine: LatencySummary, best: LatencySummary)? {
            guard let best = fts5Best, let result = warm.strategy(id) else { return nil }
            let bestByQuery = Dictionary(
                best.warm.map { ($0.query, $0.seconds) }, uniquingKeysWith: { first, _ in first })
            let pairs = result.queries.compactMap { query in
                query.medianSeconds.flatMap { mine in bestByQuery[query.query].map { (mine, $0) } }
            }
            guard !pairs.isEmpty else { return nil }
            return (LatencySummary(pairs.map(\.0)), LatencySummary(pairs.map(\.1)))
        }

        /// Each query's cold `journal search` time over the `sqlite3` process's on FTS5's best
        /// setup, for the queries both answered.
        public var coldRatiosVersusBestFTS5: [(query: String, ratio: Double)] {
            guard let best = fts5Best else { return [] }
            let bestByQuery = Dictionary(
                best.cold.map { ($0.query, $0.seconds) }, uniquingKeysWith: { first, _ in first })
            return cold.compactMap { cold in bestByQuery[cold.query].map { (cold.query, cold.journalSeconds / $0) } }
        }

        /// `result`'s and fts5's latencies over the queries both were timed on.
        public func versusFTS5(
            _ result: ComparisonReport.StrategyResult
        ) -> (mine: LatencySummary, fts5: LatencySummary)? {
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
    /// The file of entries measured instead of generated journals, when one was given.
    public var corpus: String?
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
    /// Whole processes that open no journal, next to `sqlite3`'s (measured once, before the sizes).
    public var startup: StartupCost?

    /// A report of these settings, filled in size by size.
    public init(
        date: JournalDate, seed: UInt64, runs: Int, coldRuns: Int, budgetSeconds: Double, queries: [ComparisonQuery],
        sizes: [Size]
    ) {
        self.date = date
        self.seed = seed
        self.runs = runs
        self.coldRuns = coldRuns
        self.budgetSeconds = budgetSeconds
        self.queries = queries
        self.sizes = sizes
    }
}
