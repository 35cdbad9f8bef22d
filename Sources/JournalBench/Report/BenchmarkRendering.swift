import Foundation
import JournalKit
import TextReport

/// `journal bench`'s report in every format.
package struct BenchmarkRendering: SectionedReport {
    package let report: BenchmarkReport
    package let context: ReportContext

    package init(report: BenchmarkReport, context: ReportContext) {
        self.report = report
        self.context = context
    }

    // MARK: Figures

    private static func perEntry(_ bytes: Int?, _ size: BenchmarkReport.Size) -> String {
        bytes.map { Formatting.grouped(Int((Double($0) / Double(size.entries)).rounded())) } ?? "–"
    }

    private static func ratio(_ value: Double?) -> String { value.map(BenchmarkTarget.format) ?? "–" }

    // MARK: Tables

    package var importTable: TextTable {
        TextTable(
            headers: [
                "entries", "input", "journal import", "entries/s", "MB/s", "peak memory", "peak disk",
                "peak disk / journal", "FTS5 indexing alone", "FTS5 time / import time",
            ],
            rows: report.sizes.map { size in
                [
                    Formatting.grouped(size.entries), Formatting.bytes(size.inputBytes),
                    ReportNumbers.seconds(size.importSeconds),
                    Formatting.grouped(Int((Double(size.entries) / size.importSeconds).rounded())),
                    String(format: "%.1f", Double(size.inputBytes) / 1e6 / size.importSeconds),
                    Formatting.bytes(size.importPeakBytes), size.importPeakDiskBytes.map(Formatting.bytes) ?? "–",
                    Self.ratio(size.importPeakDiskRatio), ReportNumbers.seconds(size.fts5IndexSeconds),
                    Self.ratio(size.fts5IndexSeconds.map { $0 / size.importSeconds }),
                ]
            },
            numericColumns: Set(0...9))
    }

    package var sizesTable: TextTable {
        TextTable(
            headers: [
                "entries", "distinct tokens", "main store B/entry", "search store B/entry", "FTS5 index B/entry",
                "search store / FTS5",
                "prefix table (memory)", "prefix table B/entry",
            ],
            rows: report.sizes.map { size in
                [
                    Formatting.grouped(size.entries), Formatting.grouped(size.distinctTokens),
                    Self.perEntry(size.mainStoreBytes, size),
                    Self.perEntry(size.searchStoreBytes, size),
                    Self.perEntry(size.fts5IndexBytes, size),
                    Self.ratio(size.fts5IndexBytes.map { Double(size.searchStoreBytes) / Double($0) }),
                    size.prefixTableBytes.map(Formatting.bytes) ?? "–", Self.perEntry(size.prefixTableBytes, size),
                ]
            },
            numericColumns: Set(0...7))
    }

    /// The search store's tables and indexes, then those of FTS5's index in its best setup:
    /// bytes, bytes an entry and share of the store's or the index's pages.
    package func tablesTable(_ size: BenchmarkReport.Size) -> TextTable {
        let stores = [("search store", size.searchStoreTables), ("FTS5 best setup", size.fts5Best?.indexTables)]
        return TextTable(
            headers: ["store", "table or index", "bytes", "B/entry", "share"],
            rows: stores.flatMap { store, tables in
                let whole = max(1, (tables ?? []).reduce(0) { $0 + $1.bytes })
                return (tables ?? []).map { table in
                    [
                        store, table.name, Formatting.bytes(table.bytes), Self.perEntry(table.bytes, size),
                        String(format: "%.1f %%", 100 * Double(table.bytes) / Double(whole)),
                    ]
                }
            },
            numericColumns: [2, 3, 4])
    }

    package func warmTable(_ size: BenchmarkReport.Size) -> TextTable {
        TextTable(
            headers: ["strategy", "queries", "median ms", "p95 ms", "max ms", "vs fts5 (median)", "vs fts5 (p95)"],
            rows: size.warm.strategies.map { result in
                let timed = result.timedQueries.count
                let versus = size.versusFTS5(result)
                return [
                    result.name, timed == report.queries.count ? "\(timed)" : "\(timed) of \(report.queries.count)",
                    ReportNumbers.milliseconds(result.latency.median), ReportNumbers.milliseconds(result.latency.p95),
                    ReportNumbers.milliseconds(result.latency.max),
                    result.id == .fts5
                        ? "peer" : versus.map { ReportNumbers.versus($0.mine.median, peer: $0.fts5.median) } ?? "–",
                    result.id == .fts5
                        ? "peer" : versus.map { ReportNumbers.versus($0.mine.p95, peer: $0.fts5.p95) } ?? "–",
                ]
            },
            numericColumns: [1, 2, 3, 4])
    }

    /// Each strategy's median by size: how search time grows with the journal.
    package var growthTable: TextTable {
        let ids = report.sizes.first?.warm.strategies.map(\.id) ?? []
        return TextTable(
            headers: ["median ms"] + report.sizes.map { Formatting.grouped($0.entries) },
            rows: ids.map { id in
                [id.name]
                    + report.sizes.map { size in
                        size.warm.strategy(id).map { ReportNumbers.milliseconds($0.latency.median) } ?? "–"
                    }
            },
            numericColumns: Set(1...max(1, report.sizes.count)))
    }

    package var coldTable: TextTable {
        TextTable(
            headers: ["entries", "query", "journal search ms", "sqlite3 FTS5 ms", "journal / sqlite3"],
            rows: report.sizes.flatMap { size in
                size.cold.map { cold in
                    [
                        Formatting.grouped(size.entries), cold.query, ReportNumbers.milliseconds(cold.journalSeconds),
                        ReportNumbers.milliseconds(cold.sqliteSeconds),
                        Self.ratio(cold.sqliteSeconds.map { cold.journalSeconds / $0 }),
                    ]
                }
            },
            numericColumns: [0, 2, 3, 4])
    }

    package var coldSummaryTable: TextTable {
        TextTable(
            headers: [
                "entries", "journal search the", "sqlite3 the", "ratio", "journal median over queries",
                "sqlite3 median over queries",
            ],
            rows: report.sizes.map { size in
                let the = size.coldThe
                return [
                    Formatting.grouped(size.entries), ReportNumbers.milliseconds(the?.journalSeconds),
                    ReportNumbers.milliseconds(the?.sqliteSeconds),
                    Self.ratio(the.flatMap { cold in cold.sqliteSeconds.map { cold.journalSeconds / $0 } }),
                    ReportNumbers.milliseconds(LatencySummary(size.cold.map(\.journalSeconds)).median),
                    ReportNumbers.milliseconds(
                        size.cold.compactMap(\.sqliteSeconds).isEmpty
                            ? nil : LatencySummary(size.cold.compactMap(\.sqliteSeconds)).median),
                ]
            },
            numericColumns: Set(0...5))
    }

    /// Whole processes that open no journal, each next to the `sqlite3` process of the same rounds.
    package var startupTable: TextTable {
        let sqlite = report.startup?.sqlite
        let rows = (report.startup?.rows ?? []) + (sqlite.map { [$0] } ?? [])
        return TextTable(
            headers: ["process", "median ms", "ratio to sqlite3"],
            rows: rows.map { row in
                [
                    row.command, ReportNumbers.milliseconds(row.seconds),
                    Self.ratio(sqlite.map { row.seconds / $0.seconds }),
                ]
            },
            numericColumns: [1, 2])
    }

    /// The executable the processes ran: what the kernel maps and the loader relocates.
    package var executableTable: TextTable {
        TextTable(
            headers: ["file", "loaded", "relocations", "their tables"],
            rows: (report.startup?.image).map { image in
                [
                    [
                        Formatting.bytes(image.fileBytes), Formatting.bytes(image.loadedBytes),
                        Formatting.grouped(image.relocations), Formatting.bytes(image.relocationTableBytes),
                    ]
                ]
            } ?? [],
            numericColumns: [0, 1, 2, 3])
    }

    /// Keys typed into the full-screen search: from each key to the frame showing its answer's
    /// entries, to the frame showing its total, and the same keys typed again.
    package var typingTable: TextTable {
        TextTable(
            headers: [
                "entries", "strategy", "typed", "keys", "median ms", "p95 ms", "max ms", "with total: median ms",
                "p95 ms", "max ms", "typed again: median ms", "p95 ms", "max ms",
            ],
            rows: report.sizes.flatMap { size in
                size.typing.map { typed in
                    [
                        Formatting.grouped(size.entries), typed.strategy.name, typed.queries,
                        Formatting.grouped(typed.keys.count),
                        ReportNumbers.milliseconds(typed.latency.median), ReportNumbers.milliseconds(typed.latency.p95),
                        ReportNumbers.milliseconds(typed.latency.max),
                        ReportNumbers.milliseconds(typed.latencyCounted.median),
                        ReportNumbers.milliseconds(typed.latencyCounted.p95),
                        ReportNumbers.milliseconds(typed.latencyCounted.max),
                        ReportNumbers.milliseconds(typed.latencyAgain.median),
                        ReportNumbers.milliseconds(typed.latencyAgain.p95),
                        ReportNumbers.milliseconds(typed.latencyAgain.max),
                    ]
                }
            },
            numericColumns: [0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    }

    /// A single add, durable when it returns: in the benchmark's process, and as a whole process.
    package var writesTable: TextTable {
        TextTable(
            headers: [
                "entries", "adds", "Journal.add median ms", "p95 ms", "max ms", "journal add process median ms",
                "p95 ms", "max ms",
            ],
            rows: report.sizes.compactMap { size in
                guard let writes = size.writes else { return nil }
                return [
                    Formatting.grouped(size.entries), Formatting.grouped(writes.inProcess.samples),
                    ReportNumbers.milliseconds(writes.inProcess.median),
                    ReportNumbers.milliseconds(writes.inProcess.p95),
                    ReportNumbers.milliseconds(writes.inProcess.max), ReportNumbers.milliseconds(writes.process.median),
                    ReportNumbers.milliseconds(writes.process.p95), ReportNumbers.milliseconds(writes.process.max),
                ]
            },
            numericColumns: Set(0...7))
    }

    /// The same undated file imported twice into a new journal: the second import adds nothing.
    package var reimportTable: TextTable {
        TextTable(
            headers: ["entries", "undated lines", "import s", "again s", "again / import"],
            rows: report.sizes.compactMap { size in
                guard let reimport = size.reimport else { return nil }
                return [
                    Formatting.grouped(size.entries), Formatting.grouped(reimport.lines),
                    String(format: "%.3f", reimport.importSeconds), String(format: "%.3f", reimport.reimportSeconds),
                    BenchmarkTarget.format(reimport.ratio),
                ]
            },
            numericColumns: Set(0...4))
    }

    /// A new device taking the entries in through a sync folder, beside their import.
    package var syncTakeInTable: TextTable {
        TextTable(
            headers: ["entries", "taken in", "folder", "sync s", "import s", "sync / import"],
            rows: report.sizes.compactMap { size in
                guard let sync = size.syncTakeIn else { return nil }
                return [
                    Formatting.grouped(size.entries), Formatting.grouped(sync.entries),
                    Formatting.bytes(sync.folderBytes),
                    String(format: "%.3f", sync.takeInMedian), String(format: "%.3f", sync.importMedian),
                    BenchmarkTarget.format(sync.ratio),
                ]
            },
            numericColumns: Set(0...5))
    }

    /// The queries through `journal serve` and in process, and whether the answers agreed.
    package var servedTable: TextTable {
        TextTable(
            headers: [
                "entries", "queries", "in process median ms", "served median ms", "served / in process",
                "a line through cat ms", "answers",
            ],
            rows: report.sizes.compactMap { size in
                guard let served = size.served else { return nil }
                return [
                    Formatting.grouped(size.entries), Formatting.grouped(served.inProcess.samples),
                    ReportNumbers.milliseconds(served.inProcess.median),
                    ReportNumbers.milliseconds(served.served.median),
                    BenchmarkTarget.format(served.ratio), ReportNumbers.milliseconds(served.pipeRoundTrip.median),
                    served.disagreeing.isEmpty
                        ? "the same" : "differ for " + served.disagreeing.joined(separator: ", "),
                ]
            },
            numericColumns: Set(0...5))
    }

    private static func servedJSON(_ served: ServedSearchCost) -> JSONValue {
        .object([
            "queries": .integer(served.inProcess.samples),
            "in_process_median_ms": ReportNumbers.milliseconds(json: served.inProcess.median),
            "served_median_ms": ReportNumbers.milliseconds(json: served.served.median),
            "pipe_round_trip_median_ms": ReportNumbers.milliseconds(json: served.pipeRoundTrip.median),
            "disagreeing": .array(served.disagreeing.map { .string($0) }),
        ])
    }

    private static func syncTakeInJSON(_ sync: SyncTakeInCost) -> JSONValue {
        .object([
            "entries": .integer(sync.entries), "folder_bytes": .integer(sync.folderBytes),
            "take_in_seconds": .array(sync.takeInSeconds.map { .number($0) }),
            "import_seconds": .array(sync.importSeconds.map { .number($0) }), "ratio": .number(sync.ratio),
        ])
    }

    private static func reimportJSON(_ reimport: ReimportCost) -> JSONValue {
        .object([
            "lines": .integer(reimport.lines), "import_seconds": .number(reimport.importSeconds),
            "again_seconds": .number(reimport.reimportSeconds),
        ])
    }

    /// Searches in other processes while an import adds entries: the journal's `journal search`
    /// processes during `journal import`, FTS5's `sqlite3` processes during its insert of the
    /// same entries in one transaction; and each side's write again alone.
    package var duringImportTable: TextTable {
        TextTable(
            headers: [
                "entries", "added", "side", "write s", "alone s", "searches", "idle median ms", "idle p95 ms",
                "during median ms",
                "during p95 ms", "during max ms", "p95 during / idle", "answers neither before nor after",
                "said behind",
            ],
            rows: report.sizes.flatMap { size -> [[String]] in
                guard let during = size.duringImport else { return [] }
                let sides = [("journal", during.journal)] + (during.fts5.map { [("FTS5 best", $0)] } ?? [])
                return sides.map { name, side in
                    [
                        Formatting.grouped(size.entries), Formatting.grouped(during.addedEntries), name,
                        String(format: "%.1f", side.writeSeconds), String(format: "%.1f", side.aloneSeconds),
                        Formatting.grouped(side.during.samples),
                        ReportNumbers.milliseconds(side.idle.median), ReportNumbers.milliseconds(side.idle.p95),
                        ReportNumbers.milliseconds(side.during.median), ReportNumbers.milliseconds(side.during.p95),
                        ReportNumbers.milliseconds(side.during.max),
                        Self.ratio(side.idle.p95 > 0 ? side.during.p95 / side.idle.p95 : nil),
                        Formatting.grouped(side.partial), Formatting.grouped(side.behind),
                    ]
                }
            },
            numericColumns: [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    }

    /// The searches during an import, as `--format json` writes them.
    private static func duringImportJSON(_ during: SearchDuringImport) -> JSONValue {
        func side(_ side: SearchDuringImport.Side?) -> JSONValue {
            guard let side else { return .null }
            return .object([
                "write_seconds": .number(side.writeSeconds),
                "alone_seconds": .number(side.aloneSeconds),
                "searches": .integer(side.during.samples),
                "idle_median_ms": ReportNumbers.milliseconds(json: side.idle.median),
                "idle_p95_ms": ReportNumbers.milliseconds(json: side.idle.p95),
                "during_median_ms": ReportNumbers.milliseconds(json: side.during.median),
                "during_p95_ms": ReportNumbers.milliseconds(json: side.during.p95),
                "during_max_ms": ReportNumbers.milliseconds(json: side.during.max),
                "partial_answers": .integer(side.partial),
                "behind_answers": .integer(side.behind),
            ])
        }
        return .object([
            "added": .integer(during.addedEntries), "journal": side(during.journal), "fts5_best": side(during.fts5),
        ])
    }

    /// On this day of earlier years (`list --on-this-day`, the newest 20 and the total): through
    /// the journal, next to a plain list of the newest 20 and to a scan of every entry's date.
    package var onThisDayTable: TextTable {
        TextTable(
            headers: [
                "entries", "days", "found (median)", "on this day ms (median)", "newest 20 ms", "ratio",
                "scan ms (median)",
                "scan / on this day", "journal list --on-this-day process ms",
            ],
            rows: report.sizes.compactMap { size in
                size.onThisDay.map { cost in
                    [
                        Formatting.grouped(size.entries), String(cost.days.count),
                        Formatting.grouped(Int(LatencySummary(cost.found.map(Double.init)).median)),
                        ReportNumbers.milliseconds(cost.median), ReportNumbers.milliseconds(cost.newestList),
                        Self.ratio(cost.median / max(cost.newestList, 1e-9)),
                        ReportNumbers.milliseconds(cost.scanMedian),
                        Self.ratio(cost.scanMedian / max(cost.median, 1e-9)), ReportNumbers.milliseconds(cost.process),
                    ]
                }
            },
            numericColumns: Set(0...8))
    }

    /// The same journal encrypted, next to the plain one (`--encrypted`): import, size, warm
    /// and cold searches by the default strategy, and the key derivation a cold search pays.
    package var encryptionTable: TextTable {
        TextTable(
            headers: [
                "entries", "import s: plain", "encrypted", "ratio", "bytes: plain", "encrypted", "ratio",
                "warm median ms: plain",
                "encrypted", "ratio", "warm p95 ms: plain", "encrypted", "ratio", "cold median ms: plain",
                "encrypted, KDF excluded",
                "ratio", "KDF ms (Argon2id)",
            ],
            rows: report.sizes.compactMap { size in
                size.encryption.map { cost in
                    [
                        Formatting.grouped(size.entries), String(format: "%.2f", cost.plainImportSeconds),
                        String(format: "%.2f", cost.encryptedImportSeconds),
                        Self.ratio(cost.encryptedImportSeconds / cost.plainImportSeconds),
                        Formatting.bytes(cost.plainBytes), Formatting.bytes(cost.encryptedBytes),
                        Self.ratio(Double(cost.encryptedBytes) / Double(max(cost.plainBytes, 1))),
                        ReportNumbers.milliseconds(cost.plainWarm.median),
                        ReportNumbers.milliseconds(cost.encryptedWarm.median),
                        Self.ratio(cost.encryptedWarm.median / max(cost.plainWarm.median, 1e-9)),
                        ReportNumbers.milliseconds(cost.plainWarm.p95),
                        ReportNumbers.milliseconds(cost.encryptedWarm.p95),
                        Self.ratio(cost.encryptedWarm.p95 / max(cost.plainWarm.p95, 1e-9)),
                        ReportNumbers.milliseconds(cost.plainCold),
                        ReportNumbers.milliseconds(cost.encryptedCold),
                        Self.ratio(cost.encryptedCold / max(cost.plainCold, 1e-9)),
                        ReportNumbers.milliseconds(cost.keyDerivationSeconds)
                            + " (\(cost.cost.passes) passes, \(cost.cost.memoryBytes >> 20) MiB)",
                    ]
                }
            },
            numericColumns: Set(0...16))
    }

    /// The query syntax by kind: the default strategy's per-query medians over the kind, and
    /// FTS5's best setup answering the same queries.
    package var syntaxTable: TextTable {
        TextTable(
            headers: [
                "entries", "kind", "queries", "strategy median ms", "p95 ms", "FTS5 best median ms", "p95 ms",
                "FTS5 / strategy (median)",
                "(p95)",
            ],
            rows: report.sizes.flatMap { size in
                (size.syntax?.kinds ?? []).map { kind in
                    let (mine, fts5) = (kind.latency, kind.fts5Latency)
                    return [
                        Formatting.grouped(size.entries), kind.name, Formatting.grouped(kind.queries.count),
                        ReportNumbers.milliseconds(mine.median), ReportNumbers.milliseconds(mine.p95),
                        ReportNumbers.milliseconds(fts5.median), ReportNumbers.milliseconds(fts5.p95),
                        String(format: "%.1f×", fts5.median / max(mine.median, 1e-9)),
                        String(format: "%.1f×", fts5.p95 / max(mine.p95, 1e-9)),
                    ]
                }
            },
            numericColumns: [0, 2, 3, 4, 5, 6, 7, 8])
    }

    /// Each query of the syntax table, with both totals (FTS5's tokenizer may find others).
    package var syntaxQueryTable: TextTable {
        TextTable(
            headers: ["entries", "kind", "query", "total", "FTS5 total", "strategy ms", "FTS5 best ms"],
            rows: report.sizes.flatMap { size in
                (size.syntax?.kinds ?? []).flatMap { kind in
                    kind.queries.map { query in
                        [
                            Formatting.grouped(size.entries), kind.name, query.text, Formatting.grouped(query.total),
                            Formatting.grouped(query.fts5Total), ReportNumbers.milliseconds(query.seconds),
                            ReportNumbers.milliseconds(query.fts5Seconds),
                        ]
                    }
                }
            },
            numericColumns: [0, 3, 4, 5, 6])
    }

    /// FTS5 in its best setup beside the default strategy and the naive setup, at each size.
    package var bestFTS5Table: TextTable {
        let standard = SearchStrategies.standard.id
        return TextTable(
            headers: [
                "entries", "build", "file B/entry", "best fts5 warm median ms", "p95 ms", "\(standard) median ms",
                "p95 ms",
                "best fts5 / \(standard) (median)", "naive fts5 median ms", "cold: journal / sqlite3 best (median)",
                "worst query",
            ],
            rows: report.sizes.compactMap { size in
                guard let best = size.fts5Best else { return nil }
                let versus = size.versusBestFTS5(standard)
                let cold = size.coldRatiosVersusBestFTS5.map(\.ratio)
                return [
                    Formatting.grouped(size.entries), ReportNumbers.seconds(best.buildSeconds),
                    Self.perEntry(best.bytes, size),
                    ReportNumbers.milliseconds(versus?.best.median), ReportNumbers.milliseconds(versus?.best.p95),
                    ReportNumbers.milliseconds(versus?.mine.median), ReportNumbers.milliseconds(versus?.mine.p95),
                    Self.ratio(versus.map { $0.best.median / $0.mine.median }),
                    ReportNumbers.milliseconds(size.fts5Warm?.latency.median),
                    Self.ratio(cold.isEmpty ? nil : LatencySummary(cold).median), Self.ratio(cold.max()),
                ]
            },
            numericColumns: Set(0...10))
    }

    package var filteredTable: TextTable {
        TextTable(
            headers: [
                "entries", "strategy", "limited to", "entries passing", "queries", "unlimited median ms",
                "limited median ms",
                "limited / unlimited", "worst query",
            ],
            rows: report.sizes.flatMap { size in
                size.filtered.map { search in
                    [
                        Formatting.grouped(size.entries), search.strategy.name, search.filter,
                        "\(Formatting.grouped(search.passing)) (\(String(format: "%.1f", 100 * search.share))%)",
                        String(search.queries.count),
                        ReportNumbers.milliseconds(search.unlimitedMedian),
                        ReportNumbers.milliseconds(search.limitedMedian),
                        Self.ratio(search.ratio), Self.ratio(search.worstRatio),
                    ]
                }
            },
            numericColumns: [0, 3, 4, 5, 6, 7, 8])
    }

    /// Every target (``BenchmarkTarget/all``), checked at every size of a million entries or
    /// more (or the largest).
    package var targetsTable: TextTable {
        let checked = report.sizes.filter { $0.entries >= 1_000_000 }
        let sizes = checked.isEmpty ? Array(report.sizes.suffix(1)) : checked
        return TextTable(
            headers: ["entries", "target", "measured", ""],
            rows: (report.startup.map { startup in
                BenchmarkTarget.startup.compactMap { target in
                    target.check(startup).map { outcome in
                        [
                            "–", target.label, outcome.measured,
                            outcome.met.map { $0 ? "met" : "MISSED" } ?? "not measured",
                        ]
                    }
                }
            } ?? [])
                + sizes.flatMap { size in
                    BenchmarkTarget.all.compactMap { target in
                        target.check(size).map { outcome in
                            [
                                Formatting.grouped(size.entries), target.label, outcome.measured,
                                outcome.met.map { $0 ? "met" : "MISSED" } ?? "not measured",
                            ]
                        }
                    }
                },
            numericColumns: [0])
    }

    package var facts: [String] {
        [
            "measured: \(report.date.iso8601) on \(context.machine)",
            "command: \(context.command)",
            "journals: \(report.corpus.map { "the entries of `\($0)`" } ?? "`journal generate --seed \(report.seed)`"); \(report.queries.count) queries chosen from the first journal (\(report.queries.map(\.text).joined(separator: ", ")))",
            "warm: \(report.runs) timed runs per query after one untimed, exact total + newest 20, in one process; a strategy stops after \(Int(report.budgetSeconds)) s per size",
            "cold: median of \(report.coldRuns) whole processes per query; journal uses its default strategy (\(SearchStrategies.standard.name))",
        ]
    }

    // MARK: Formats

    package let title = "journal bench"

    package var sections: [ReportSection] {
        var sections = [
            ReportSection("Import", [.figure(importChart), .table(importTable)]),
            ReportSection("A single add (durable on return)", [.table(writesTable)]),
            ReportSection("The same file imported again", [.table(reimportTable)]),
            ReportSection(
                "A new device through journal sync",
                [
                    .paragraph(
                        "A journal imports the entries and syncs once into a folder; then journal sync takes them into "
                            + "a new journal, beside journal import of the same entries into another (medians of "
                            + "\(SyncTakeInCost.rounds) alternated rounds)."),
                    .table(syncTakeInTable),
                ]),
            ReportSection("Searches during an import (whole processes)", [.table(duringImportTable)]),
            ReportSection("Sizes", [.figure(sizeChart), .table(sizesTable)]),
        ]
        sections += report.sizes.filter { $0.searchStoreTables != nil }.map { size in
            ReportSection("Sizes by table, \(Formatting.grouped(size.entries)) entries", [.table(tablesTable(size))])
        }
        sections += report.sizes.map { size in
            ReportSection("Warm search, \(Formatting.grouped(size.entries)) entries", [.table(warmTable(size))])
        }
        sections += [
            ReportSection("Median by journal size", [.figure(warmChart), .detail(growthTable)]),
            ReportSection("FTS5 in its best setup (same queries)", [.table(bestFTS5Table)]),
            ReportSection(
                "The query syntax against FTS5's best setup (warm, in process)",
                [.table(syntaxTable), .detail(syntaxQueryTable)]),
            ReportSection("Filtered search (same process, same queries)", [.table(filteredTable)]),
            ReportSection("Start-up (whole processes, no journal)", [.table(startupTable), .table(executableTable)]),
            ReportSection("Searches through journal serve (same queries)", [.table(servedTable)]),
            ReportSection(
                "Cold search (whole processes)", [.figure(coldChart), .table(coldSummaryTable), .detail(coldTable)]),
            ReportSection("Typing in the full-screen search (key press → redrawn screen)", [.table(typingTable)]),
            ReportSection("On this day (same process)", [.table(onThisDayTable)]),
        ]
        if report.sizes.contains(where: { $0.encryption != nil }) {
            sections.append(ReportSection("Encrypted at rest (the same journal)", [.table(encryptionTable)]))
        }
        sections.append(ReportSection("Targets", [.table(targetsTable)], isVerdict: true))
        return sections
    }

    package var json: JSONValue {
        .object([
            "date": .string(report.date.iso8601),
            "command": .string(context.command),
            "machine": .string(context.machine),
            "seed": .integer(Int(report.seed)),
            "corpus": report.corpus.map { .string($0) } ?? .null,
            "runs": .integer(report.runs),
            "cold_runs": .integer(report.coldRuns),
            "budget_seconds": .number(report.budgetSeconds),
            "startup": report.startup.map(Self.startupJSON) ?? .null,
            "queries": .array(report.queries.map { .object(["text": .string($0.text), "kind": .string($0.kind)]) }),
            "sizes": .array(report.sizes.map(Self.sizeJSON)),
        ])
    }

    private static func sizeJSON(_ size: BenchmarkReport.Size) -> JSONValue {
        .object([
            "entries": .integer(size.entries),
            "input_bytes": .integer(size.inputBytes),
            "distinct_tokens": .integer(size.distinctTokens),
            "import_seconds": .number(size.importSeconds),
            "import_peak_bytes": .integer(size.importPeakBytes),
            "import_peak_disk_bytes": size.importPeakDiskBytes.map(JSONValue.integer) ?? .null,
            "fts5_index_seconds": size.fts5IndexSeconds.map(JSONValue.number) ?? .null,
            "main_store_bytes": .integer(size.mainStoreBytes),
            "search_store_bytes": .integer(size.searchStoreBytes),
            "search_store_tables": size.searchStoreTables.map(StoreTableSize.json) ?? .null,
            "fts5_index_bytes": size.fts5IndexBytes.map(JSONValue.integer) ?? .null,
            "prefix_table_bytes": size.prefixTableBytes.map(JSONValue.integer) ?? .null,
            "warm": .array(size.warm.strategies.map { Self.warmJSON($0, at: size) }),
            "fts5_best": size.fts5Best.map(Self.fts5BestJSON) ?? .null,
            "filtered": .array(size.filtered.map(Self.filteredJSON)),
            "syntax": size.syntax.map(Self.syntaxJSON) ?? .null,
            "encryption": size.encryption.map(Self.encryptionJSON) ?? .null,
            "on_this_day": size.onThisDay.map(Self.onThisDayJSON) ?? .null,
            "during_import": size.duringImport.map(Self.duringImportJSON) ?? .null,
            "reimport": size.reimport.map(Self.reimportJSON) ?? .null,
            "sync_take_in": size.syncTakeIn.map(Self.syncTakeInJSON) ?? .null,
            "served": size.served.map(Self.servedJSON) ?? .null,
            "writes": size.writes.map(Self.writesJSON) ?? .null,
            "typing": .array(size.typing.map(Self.typingJSON)),
            "cold": .array(size.cold.map(Self.coldJSON)),
        ])
    }

    private static func startupJSON(_ startup: StartupCost) -> JSONValue {
        .object([
            "runs": .integer(startup.runs),
            "processes": .array(
                startup.rows.map {
                    .object([
                        "command": .string($0.command),
                        "median_ms": ReportNumbers.milliseconds(json: $0.seconds),
                    ])
                }),
            "sqlite3_ms": startup.sqlite.map { ReportNumbers.milliseconds(json: $0.seconds) } ?? .null,
            "executable": startup.image.map { image in
                .object([
                    "file_bytes": .integer(image.fileBytes), "loaded_bytes": .integer(image.loadedBytes),
                    "relocations": .integer(image.relocations),
                    "relocation_table_bytes": .integer(image.relocationTableBytes),
                ])
            } ?? .null,
        ])
    }

    private static func fts5BestJSON(_ best: BenchmarkReport.FTS5Best) -> JSONValue {
        .object([
            "build_seconds": .number(best.buildSeconds), "bytes": .integer(best.bytes),
            "index_bytes": best.indexBytes.map { .integer($0) } ?? .null,
            "index_tables": best.indexTables.map(StoreTableSize.json) ?? .null,
            "warm": .array(
                best.warm.map {
                    .object([
                        "query": .string($0.query),
                        "median_ms": ReportNumbers.milliseconds(json: $0.seconds),
                    ])
                }),
            "cold": .array(
                best.cold.map {
                    .object([
                        "query": .string($0.query),
                        "sqlite3_ms": ReportNumbers.milliseconds(json: $0.seconds),
                    ])
                }),
        ])
    }

    private static func filteredJSON(_ filtered: FilteredSearch) -> JSONValue {

        .object([
            "strategy": .string(filtered.strategy.name), "limited_to": .string(filtered.filter),
            "passing": .integer(filtered.passing),
            "queries": .array(filtered.queries.map(JSONValue.string)),
            "unlimited_median_ms": ReportNumbers.milliseconds(json: filtered.unlimitedMedian),
            "limited_median_ms": ReportNumbers.milliseconds(json: filtered.limitedMedian),
            "worst_ratio": .number(filtered.worstRatio),
        ])
    }

    private static func syntaxJSON(_ syntax: SyntaxSearch) -> JSONValue {
        .object([
            "strategy": .string(syntax.strategy),
            "kinds": .array(
                syntax.kinds.map { kind in
                    .object([
                        "kind": .string(kind.name),
                        "queries": .array(
                            kind.queries.map {
                                .object([
                                    "query": .string($0.text), "total": .integer($0.total),
                                    "fts5_total": .integer($0.fts5Total),
                                    "ms": ReportNumbers.milliseconds(json: $0.seconds),
                                    "fts5_best_ms": ReportNumbers.milliseconds(
                                        json: $0.fts5Seconds),
                                ])
                            }),
                    ])
                }),
        ])
    }

    private static func encryptionJSON(_ cost: EncryptionCost) -> JSONValue {
        .object([
            "plain_import_s": .number(cost.plainImportSeconds),
            "encrypted_import_s": .number(cost.encryptedImportSeconds),
            "plain_bytes": .integer(cost.plainBytes),
            "encrypted_bytes": .integer(cost.encryptedBytes),
            "plain_warm_median_ms": ReportNumbers.milliseconds(json: cost.plainWarm.median),
            "encrypted_warm_median_ms": ReportNumbers.milliseconds(json: cost.encryptedWarm.median),
            "plain_warm_p95_ms": ReportNumbers.milliseconds(json: cost.plainWarm.p95),
            "encrypted_warm_p95_ms": ReportNumbers.milliseconds(json: cost.encryptedWarm.p95),
            "plain_cold_median_ms": ReportNumbers.milliseconds(json: cost.plainCold),
            "encrypted_cold_median_ms_without_kdf": ReportNumbers.milliseconds(
                json: cost.encryptedCold),
            "kdf_ms": ReportNumbers.milliseconds(json: cost.keyDerivationSeconds),
            "kdf_passes": .integer(cost.cost.passes),
            "kdf_memory_bytes": .integer(cost.cost.memoryBytes),
        ])
    }

    private static func onThisDayJSON(_ cost: OnThisDayCost) -> JSONValue {
        .object([
            "days": .array(cost.days.map(JSONValue.string)),
            "found": .array(cost.found.map(JSONValue.integer)),
            "median_ms": ReportNumbers.milliseconds(json: cost.median),
            "newest_list_ms": ReportNumbers.milliseconds(json: cost.newestList),
            "scan_median_ms": ReportNumbers.milliseconds(json: cost.scanMedian),
            "process_ms": ReportNumbers.milliseconds(json: cost.process),
        ])
    }

    private static func writesJSON(_ writes: WriteLatency) -> JSONValue {
        .object([
            "adds": .integer(writes.inProcess.samples),
            "in_process_median_ms": ReportNumbers.milliseconds(json: writes.inProcess.median),
            "in_process_p95_ms": ReportNumbers.milliseconds(json: writes.inProcess.p95),
            "in_process_max_ms": ReportNumbers.milliseconds(json: writes.inProcess.max),
            "process_median_ms": ReportNumbers.milliseconds(json: writes.process.median),
            "process_p95_ms": ReportNumbers.milliseconds(json: writes.process.p95),
            "process_max_ms": ReportNumbers.milliseconds(json: writes.process.max),
        ])
    }

    private static func typingJSON(_ typing: TypingLatency) -> JSONValue {

        .object([
            "strategy": .string(typing.strategy.name), "typed": .string(typing.queries),
            "keys": .integer(typing.keys.count),
            "median_ms": ReportNumbers.milliseconds(json: typing.latency.median),
            "p95_ms": ReportNumbers.milliseconds(json: typing.latency.p95),
            "max_ms": ReportNumbers.milliseconds(json: typing.latency.max),
            "with_total_median_ms": ReportNumbers.milliseconds(json: typing.latencyCounted.median),
            "with_total_p95_ms": ReportNumbers.milliseconds(json: typing.latencyCounted.p95),
            "with_total_max_ms": ReportNumbers.milliseconds(json: typing.latencyCounted.max),
            "again_median_ms": ReportNumbers.milliseconds(json: typing.latencyAgain.median),
            "again_p95_ms": ReportNumbers.milliseconds(json: typing.latencyAgain.p95),
            "again_max_ms": ReportNumbers.milliseconds(json: typing.latencyAgain.max),
        ])
    }

    private static func coldJSON(_ cold: BenchmarkReport.ColdQuery) -> JSONValue {

        .object([
            "query": .string(cold.query),
            "journal_ms": ReportNumbers.milliseconds(json: cold.journalSeconds),
            "sqlite3_ms": ReportNumbers.milliseconds(json: cold.sqliteSeconds),
        ])
    }

    private static func warmJSON(_ result: ComparisonReport.StrategyResult, at size: BenchmarkReport.Size) -> JSONValue
    {
        .object([
            "strategy": .string(result.name),
            "queries_timed": .integer(result.timedQueries.count),
            "median_ms": ReportNumbers.milliseconds(json: result.latency.median),
            "p95_ms": ReportNumbers.milliseconds(json: result.latency.p95),
            "max_ms": ReportNumbers.milliseconds(json: result.latency.max),
            "fts5_median_ms_same_queries": ReportNumbers.milliseconds(
                json: size.versusFTS5(result)?.fts5.median),
            "fts5_p95_ms_same_queries": ReportNumbers.milliseconds(
                json: size.versusFTS5(result)?.fts5.p95),
            "queries": .array(
                result.queries.map {
                    .object([
                        "query": .string($0.query),
                        "total": $0.total.map(JSONValue.integer) ?? .null,
                        "median_ms": ReportNumbers.milliseconds(json: $0.medianSeconds),
                        "skipped": .bool($0.skipped),
                    ])
                }),
        ])
    }

    private static let palette = [
        "#c05621", "#dd6b20", "#b7791f", "#975a16", "#9c4221", "#6b46c1", "#805ad5", "#9f7aea",
        "#553c9a", "#2b6cb0", "#2c7a7b", "#e53e3e",
    ]

    private func chart(_ series: [LogLineChart.Series], y: @escaping (Double) -> String) -> String {
        LogLineChart(series: series, xLabel: { Formatting.grouped(Int($0.rounded())) }, yLabel: y).svg
    }

    private var warmChart: String {
        let ids = report.sizes.first?.warm.strategies.map(\.id) ?? []
        return chart(
            ids.enumerated().map { index, id in
                LogLineChart.Series(
                    label: id.name,
                    color: Self.palette[
                        (SearchStrategies.all.firstIndex { $0.id == id } ?? index) % Self.palette.count],
                    points: report.sizes.compactMap { size in
                        size.warm.strategy(id).map { (Double(size.entries), $0.latency.median) }
                    },
                    dashed: id == .fts5)
            }, y: { ReportNumbers.seconds($0) })
    }

    private var importChart: String {
        chart(
            [
                .init(
                    label: "journal import", color: "#2b6cb0",
                    points: report.sizes.map { (Double($0.entries), $0.importSeconds) }),
                .init(
                    label: "FTS5 indexing alone", color: "#e53e3e",
                    points: report.sizes.compactMap { size in size.fts5IndexSeconds.map { (Double(size.entries), $0) }
                    }, dashed: true),
            ], y: { ReportNumbers.seconds($0) })
    }

    private var sizeChart: String {
        func series(
            _ label: String, _ color: String, _ bytes: (BenchmarkReport.Size) -> Int?, dashed: Bool = false
        ) -> LogLineChart.Series {
            .init(
                label: label, color: color,
                points: report.sizes.compactMap { size in
                    bytes(size).map { (Double(size.entries), Double($0) / Double(size.entries)) }
                },
                dashed: dashed)
        }
        return chart(
            [
                series("main store", "#975a16", \.mainStoreBytes),
                series("search store", "#2b6cb0", \.searchStoreBytes),
                series("FTS5 index", "#e53e3e", \.fts5IndexBytes, dashed: true),
                series("prefix table (memory)", "#2c7a7b", \.prefixTableBytes),
            ], y: { "\(Formatting.grouped(Int($0.rounded()))) B" })
    }

    private var coldChart: String {
        chart(
            [
                .init(
                    label: "journal search the", color: "#2b6cb0",
                    points: report.sizes.compactMap { size in
                        size.coldThe.map { (Double(size.entries), $0.journalSeconds) }
                    }),
                .init(
                    label: "sqlite3 FTS5 the", color: "#e53e3e",
                    points: report.sizes.compactMap { size in
                        size.coldThe?.sqliteSeconds.map { (Double(size.entries), $0) }
                    },
                    dashed: true),
            ], y: { ReportNumbers.seconds($0) })
    }
}
