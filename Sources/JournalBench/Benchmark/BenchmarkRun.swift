import Foundation
import GRDB
import JournalKit

/// `journal bench`'s steps for one journal size: generate it, import it with a separate
/// `journal` process, time every strategy warm in this process (which builds the FTS5 peer
/// first, timed), then time whole processes answering queries cold.
public struct BenchmarkRun: Sendable {
    /// Where generated journals and stores are kept.
    public let folder: URL
    /// The seed of every generated journal.
    public let seed: UInt64
    /// The strategies timed warm.
    public let strategies: [SearchStrategy]
    /// Timed warm runs per query.
    public let runs: Int
    /// Whole processes per query for the cold figures.
    public let coldRuns: Int
    /// Seconds a strategy may spend per size before its remaining queries are skipped.
    public let budgetSeconds: Double
    /// Whether the stores stay in `folder` after measuring.
    public let keepStores: Bool
    /// Whether each generated input is deleted once imported (for lack of disk: the input of the
    /// largest sizes is as large as their main store), to be generated again by the next run.
    public let discardInputs: Bool
    /// Whether each size is also imported into an encrypted journal and searched there
    /// (``EncryptionCost``).
    public let encrypted: Bool
    /// Entries to measure instead of a generated journal (JSON Lines, as `journal import`
    /// reads them), or nil.
    public let corpus: URL?
    /// Hears one line per step, for a status line.
    public let progress: @Sendable (String) -> Void

    /// A run with these settings.
    public init(
        folder: URL, seed: UInt64, strategies: [SearchStrategy], runs: Int, coldRuns: Int, budgetSeconds: Double,
        keepStores: Bool, discardInputs: Bool = false, encrypted: Bool = false, corpus: URL? = nil,
        progress: @escaping @Sendable (String) -> Void
    ) {
        self.folder = folder
        self.seed = seed
        self.strategies = strategies
        self.runs = runs
        self.coldRuns = coldRuns
        self.budgetSeconds = budgetSeconds
        self.keepStores = keepStores
        self.discardInputs = discardInputs
        self.encrypted = encrypted
        self.corpus = corpus
        self.progress = progress
    }

    /// The generated input for `entries`, written once per size and seed and reused; the
    /// corpus when there is one.
    public func input(entries: Int) throws -> URL {
        if let corpus { return corpus }
        return try generated(entries: entries, seed: seed)
    }

    /// A generated journal of `entries` entries from `seed`, written once and reused.
    private func generated(entries: Int, seed: UInt64) throws -> URL {
        // Named by the generator's version too: a file an older generator wrote is not reused.
        let file = folder.appendingPathComponent("journal-\(entries)-seed\(seed)-\(SyntheticJournal.version).jsonl")
        guard !FileManager.default.fileExists(atPath: file.path) else { return file }
        progress("generating \(entries) entries…")
        let partial = file.appendingPathExtension("partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil),
            let sink = FileHandle(forWritingAtPath: partial.path)
        else {
            throw JournalError(.invalidInput, "cannot write \(partial.path)")
        }
        try SyntheticJournalFile.write(entries: entries, seed: seed, to: sink)
        try sink.close()
        try FileManager.default.moveItem(at: partial, to: file)
        return file
    }

    /// The strategies typed into the full-screen search, when the run includes them: the two
    /// made for search as you type (the others answer a key in a scan of every entry).
    static let typedStrategies: [StrategyID] = [.prefix, .token]

    /// Single adds timed each way at every size.
    static let timedAdds = 40

    /// Undated lines imported twice at every size (fewer at a smaller size).
    static let reimportedLines = 100_000

    /// Entries a new device takes in through a sync folder at every size (fewer at a smaller size).
    static let syncedLines = 100_000

    /// Measures one size. `queries` nil: chosen from this journal (and returned for the next sizes).
    public func measure(entries: Int, queries: [ComparisonQuery]?) throws -> BenchmarkReport.Size {
        let file = try input(entries: entries)
        let inputBytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        let store = folder.appendingPathComponent("store-\(entries)")
        try? FileManager.default.removeItem(at: store)
        defer { if !keepStores { try? FileManager.default.removeItem(at: store) } }

        let executable = ChildProcess.currentExecutable
        let (imported, importPeakDiskBytes) = try importProcess(of: file, into: store, entries: entries)
        let journal = try Journal(directory: StoreDirectory(store), create: false)
        defer { try? journal.close() }
        let before = try journal.statistics()
        let searchTables = try journal.searchStoreTables()
        let chosen = try queries ?? Self.queries(for: journal)
        var comparison = StrategyComparison(strategies: strategies, queries: chosen)
        (comparison.runs, comparison.measureBuilds, comparison.checksAgreement) = (runs, false, false)
        comparison.budgetSeconds = budgetSeconds
        let warm = try comparison.run(on: journal) { progress("\(entries) entries: \($0)") }

        let filtered = try filteredSearches(in: journal, queries: chosen.map(\.text)) {
            progress("\(entries) entries: \($0)")
        }
        progress("\(entries) entries: FTS5 in its best setup…")
        let (best, syntax) = try fts5Best(from: journal, store: store, queries: chosen.map(\.text)) {
            progress("\(entries) entries: \($0)")
        }

        let added = SearchDuringImport.addedEntries(to: entries)
        let duringImport = try SearchDuringImport.measure(
            store: store, fts5File: store.appendingPathComponent("fts5-best.sqlite"),
            input: generated(entries: added, seed: seed &+ 1), added: added, queries: chosen.map(\.text),
            executable: executable, scratch: folder
        ) { progress("\(entries) entries: \($0)") }

        progress("\(entries) entries: on this day, through the date index and by a scan…")
        let onThisDay = try OnThisDayCost.measure(
            journal: journal, store: store, executable: executable, runs: runs, coldRuns: coldRuns)
        let fts5 = warm.strategy(.fts5)?.structure
        let cold = try chosen.map { query in
            progress("\(entries) entries: cold processes for \"\(query.text)\"…")
            return try coldQuery(query.text, store: store, executable: executable, naivePeer: fts5 != nil)
        }
        let typing = try typingSessions(
            words: chosen.map(\.text), syntax: syntax, store: store, entries: entries, executable: executable)
        var encryption: EncryptionCost?
        if encrypted {
            let encryptedStore = folder.appendingPathComponent("store-\(entries)-encrypted")
            defer { if !keepStores { try? FileManager.default.removeItem(at: encryptedStore) } }
            encryption = try EncryptionCost.measure(
                input: file, store: encryptedStore, plainJournal: journal, plainStore: store,
                plainImportSeconds: imported.seconds,
                queries: chosen.map(\.text), runs: runs, coldRuns: coldRuns, executable: executable
            ) { progress("\(entries) entries: \($0)") }
        }
        progress("\(entries) entries: the same undated file imported twice…")
        let reimport = try ReimportCost.measure(
            input: file, lines: min(entries, Self.reimportedLines), executable: executable, scratch: folder)
        let syncTakeIn = try SyncTakeInCost.measure(
            input: file, lines: min(entries, Self.syncedLines), executable: executable, scratch: folder
        ) { progress("\(entries) entries: \($0)") }
        progress("\(entries) entries: the queries through journal serve and in process…")
        let served = try ServedSearchCost.measure(
            journal: journal, store: store, executable: executable, queries: chosen.map(\.text), runs: runs)
        if discardInputs, corpus == nil { try? FileManager.default.removeItem(at: file) }
        // Last, so that every search above sees the journal as imported.
        progress("\(entries) entries: \(Self.timedAdds) single adds in this process, then as journal add processes…")
        let writes = try WriteLatency.measure(
            journal: journal, store: store, executable: executable, count: Self.timedAdds)
        return BenchmarkReport.Size(
            entries: entries, inputBytes: inputBytes, importSeconds: imported.seconds,
            importPeakBytes: imported.peakBytes, importPeakDiskBytes: importPeakDiskBytes,
            fts5IndexSeconds: fts5?.buildSeconds, distinctTokens: before.tokens, mainStoreBytes: before.mainStoreBytes,
            searchStoreBytes: before.searchStoreBytes + before.prefixTableBytes, searchStoreTables: searchTables,
            fts5IndexBytes: fts5?.bytes, prefixTableBytes: warm.strategy(.prefix)?.structure.bytes, warm: warm,
            filtered: filtered,
            fts5Best: best, syntax: syntax, cold: cold, typing: typing, writes: writes, encryption: encryption,
            onThisDay: onThisDay, duringImport: duringImport, reimport: reimport, served: served,
            syncTakeIn: syncTakeIn)
    }

    /// `journal import` of `file` into `store` as a separate process, with the most disk the
    /// store took meanwhile; an error with the import's own last line when it fails.
    private func importProcess(
        of file: URL, into store: URL, entries: Int
    ) throws -> (imported: ChildProcess.Outcome, peakDiskBytes: Int) {
        progress("\(entries) entries: journal import (a separate process)…")
        let (imported, peakDiskBytes) = try DiskPeak.during(store) {
            try ChildProcess.journal(
                ChildProcess.currentExecutable, ["--store", store.path, "import", file.path],
                errorFile: folder.appendingPathComponent("import-\(entries).stderr"))
        }
        return (imported, peakDiskBytes)
    }

    /// The words, and the phrases the query syntax timed (but for Chinese and Japanese, which
    /// FTS5 can't compare), typed into the full-screen search with each typed strategy.
    private func typingSessions(
        words: [String], syntax: SyntaxSearch, store: URL, entries: Int, executable: String
    ) throws -> [TypingLatency] {
        let phrases = syntax.kinds.filter { $0.name.hasPrefix("phrase") && !$0.name.hasSuffix("CJK") }
            .flatMap { $0.queries.map(\.text) }
        return try strategies.filter { Self.typedStrategies.contains($0.id) }.flatMap { strategy in
            try [("words", words), ("phrases", phrases)].filter { !$0.1.isEmpty }.map { kind, queries in
                progress("\(entries) entries: typing the \(kind) into journal search --interactive (\(strategy.name))…")
                return try TypingSession.measure(
                    executable: executable, store: store, strategy: strategy.id, queries: queries, kind: kind)
            }
        }
    }

    /// Builds FTS5's best setup beside the store and times it on `queries`, in this process and
    /// as `sqlite3` processes, and on the query syntax beside the default strategy.
    private func fts5Best(
        from journal: Journal, store: URL, queries: [String], progress: (String) -> Void
    ) throws -> (BenchmarkReport.FTS5Best, SyntaxSearch) {
        let file = store.appendingPathComponent("fts5-best.sqlite")
        let (setup, seconds, bytes, indexBytes, indexTables) = try FTS5BestSetup.build(from: journal, at: file)
        var readOnly = Configuration()
        readOnly.readonly = true
        let queue = try DatabaseQueue(path: file.path, configuration: readOnly)
        var warm: [(query: String, seconds: Double)] = []
        for query in queries {
            if let median = try setup.medianSeconds(of: query, runs: runs, in: queue) { warm.append((query, median)) }
        }
        let syntax = try SyntaxSearch.measure(
            SearchStrategies.standard, journal: journal, best: queue, runs: runs, progress: progress)
        try queue.close()
        var cold: [(query: String, seconds: Double)] = []
        if let sqlite3 = ChildProcess.find("sqlite3") {
            for query in queries {
                guard
                    let arguments = Self.sqlite3Arguments(
                        database: file, query: query,
                        statements: [FTS5BestSetup.countSQL + ";", FTS5BestSetup.pageSQL + ";"])
                else { continue }
                cold.append(
                    (
                        query,
                        try medianProcessSeconds(
                            sqlite3, arguments, failing: "sqlite3 on FTS5's best setup for \(query)")
                    ))
            }
        }
        return (
            BenchmarkReport.FTS5Best(
                buildSeconds: seconds, bytes: bytes, indexBytes: indexBytes, indexTables: indexTables, warm: warm,
                cold: cold), syntax
        )
    }

    /// The default strategy limited to a year, and a substring strategy limited to a month, each
    /// next to the same search unlimited: the year and month of the journal's middle entry (UTC),
    /// so that the filter neither starts nor ends at the journal's ends.
    private func filteredSearches(
        in journal: Journal, queries: [String], progress: (String) -> Void
    ) throws(JournalError) -> [FilteredSearch] {
        let total = try journal.list(PageRequest(limit: 1)).total
        guard let middle = try journal.list(PageRequest(limit: 1, offset: total / 2)).entries.first else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = middle.date.date
        func span(_ component: Calendar.Component) throws(JournalError) -> EntryFilter {
            let start = calendar.dateInterval(of: component, for: date)!
            return try EntryFilter(from: JournalDate(start.start), until: JournalDate(start.end))
        }
        let year = calendar.component(.year, from: date)
        let month = calendar.component(.month, from: date)
        var measured: [FilteredSearch] = []
        for (id, filter, label) in [
            (SearchStrategies.standard.id, try span(.year), String(year)),
            (StrategyID.containsN, try span(.month), String(format: "%04d-%02d", year, month)),
        ] {
            guard let strategy = strategies.first(where: { $0.id == id }) else { continue }
            progress("timing \(id) limited to \(label) and unlimited…")
            measured.append(
                try FilteredSearch.measure(
                    strategy, filter: filter, describedAs: label, queries: queries, runs: runs,
                    budgetSeconds: budgetSeconds, in: journal))
        }
        return measured
    }

    /// The journal's built-in query set, with the queries that match most of any journal
    /// (`the`, `a`, `e`) added when missing.
    public static func queries(for journal: Journal) throws(JournalError) -> [ComparisonQuery] {
        var queries = try journal.builtInQueries()
        for text in ["the", "a", "e"] where !queries.contains(where: { $0.text == text }) {
            queries.append(ComparisonQuery(text: text, kind: "matches most entries"))
        }
        return queries
    }

    /// `naivePeer`: whether the `fts5` strategy built its index in the main store, for the naive
    /// `sqlite3` process to query.
    private func coldQuery(
        _ query: String, store: URL, executable: String, naivePeer: Bool
    ) throws -> BenchmarkReport.ColdQuery {
        let journalSeconds = try medianProcessSeconds(
            executable, ["--store", store.path, "search", query, "--limit", "20", "--json"],
            failing: "journal search \(query)")
        var sqliteSeconds: Double?
        if naivePeer, let sqlite3 = ChildProcess.find("sqlite3"),
            let arguments = Self.sqlite3Arguments(
                database: store.appendingPathComponent("journal.sqlite"), query: query,
                statements: [
                    "SELECT count(*) FROM entry_fts WHERE entry_fts MATCH :q;",
                    """
                    SELECT e.n, e.date, e.text FROM entry_fts f JOIN entry e ON e.n = f.rowid
                    WHERE entry_fts MATCH :q ORDER BY e.date DESC, e.n DESC LIMIT 20;
                    """,
                ])
        {
            sqliteSeconds = try medianProcessSeconds(
                sqlite3, arguments, failing: "sqlite3 on the FTS5 query for \(query)")
        }
        return BenchmarkReport.ColdQuery(query: query, journalSeconds: journalSeconds, sqliteSeconds: sqliteSeconds)
    }

    /// The median wall time of `coldRuns` whole processes of `executable`; `failing` names the
    /// command when one exits with a failure.
    private func medianProcessSeconds(_ executable: String, _ arguments: [String], failing: String) throws -> Double {
        var times: [Double] = []
        for _ in 0..<coldRuns {
            let outcome = try ChildProcess.run(executable, arguments)
            guard outcome.status == 0 else {
                throw JournalError(.store, "\(failing) failed (exit status \(outcome.status))")
            }
            times.append(outcome.seconds)
        }
        return LatencySummary(times).median
    }

    /// How long a `sqlite3` process waits for a lock before giving up.
    static let busyMilliseconds = 5_000

    /// The arguments of a read-only `sqlite3` process on `database` that binds the FTS5 query of
    /// `query` to `:q` (a parameter, never spliced into the SQL; `.parameter set` reads an SQL
    /// literal) and runs `statements`; nil when the query is not one `MATCH` expression.
    static func sqlite3Arguments(database: URL, query: String, statements: [String]) -> [String]? {
        guard let fts5 = FTS5BestSetup.query(query), fts5.condition == "1", let expression = fts5.match else {
            return nil
        }
        let literal = "'" + expression.replacingOccurrences(of: "'", with: "''") + "'"
        // A reader that meets a writer's commit waits for it, as FTS5's users set a busy timeout,
        // rather than failing with SQLITE_BUSY.
        return ["-readonly", database.path, ".timeout \(busyMilliseconds)", ".parameter set :q \(literal)"] + statements
    }
}
