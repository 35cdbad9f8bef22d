import Foundation
import JournalBench
import JournalKit

/// `journal bench`'s report in every format.
struct BenchmarkRendering: ReportRendering {
    let report: BenchmarkReport
    let context: ReportContext

    // MARK: Figures

    private static func perEntry(_ bytes: Int?, _ size: BenchmarkReport.Size) -> String {
        bytes.map { Formatting.grouped(Int((Double($0) / Double(size.entries)).rounded())) } ?? "–"
    }

    private static func ratio(_ value: Double?) -> String {
        value.map { String(format: $0 < 0.1 ? "%.4f" : "%.2f", $0) } ?? "–"
    }

    /// FTS5's indexing time over journal's whole import: 1 or more means import is as fast.
    private static func importRatio(_ size: BenchmarkReport.Size) -> Double? {
        size.fts5IndexSeconds.map { $0 / size.importSeconds }
    }

    private static func coldThe(_ size: BenchmarkReport.Size) -> BenchmarkReport.ColdQuery? {
        size.cold.first { $0.query == "the" }
    }

    // MARK: Tables

    var importTable: TextTable {
        TextTable(
            headers: [
                "entries", "input", "journal import", "entries/s", "MB/s", "peak memory", "FTS5 indexing alone", "FTS5 time / import time",
            ],
            rows: report.sizes.map { size in
                [
                    Formatting.grouped(size.entries), Formatting.bytes(size.inputBytes), ReportNumbers.seconds(size.importSeconds),
                    Formatting.grouped(Int((Double(size.entries) / size.importSeconds).rounded())),
                    String(format: "%.1f", Double(size.inputBytes) / 1e6 / size.importSeconds),
                    Formatting.bytes(size.importPeakBytes), ReportNumbers.seconds(size.fts5IndexSeconds),
                    Self.ratio(Self.importRatio(size)),
                ]
            },
            numericColumns: Set(0...7))
    }

    var sizesTable: TextTable {
        TextTable(
            headers: [
                "entries", "distinct tokens", "main store B/entry", "search store B/entry", "FTS5 index B/entry", "search store / FTS5",
                "prefix table (memory)", "prefix table B/entry",
            ],
            rows: report.sizes.map { size in
                [
                    Formatting.grouped(size.entries), Formatting.grouped(size.distinctTokens), Self.perEntry(size.mainStoreBytes, size),
                    Self.perEntry(size.searchStoreBytes, size),
                    Self.perEntry(size.fts5IndexBytes, size),
                    Self.ratio(size.fts5IndexBytes.map { Double(size.searchStoreBytes) / Double($0) }),
                    size.prefixTableBytes.map(Formatting.bytes) ?? "–", Self.perEntry(size.prefixTableBytes, size),
                ]
            },
            numericColumns: Set(0...7))
    }

    func warmTable(_ size: BenchmarkReport.Size) -> TextTable {
        TextTable(
            headers: ["strategy", "queries", "median ms", "p95 ms", "max ms", "vs fts5 (median)", "vs fts5 (p95)"],
            rows: size.warm.strategies.map { result in
                let timed = result.timedQueries.count
                let versus = size.versusFTS5(result)
                return [
                    result.name, timed == report.queries.count ? "\(timed)" : "\(timed) of \(report.queries.count)",
                    ReportNumbers.milliseconds(result.latency.median), ReportNumbers.milliseconds(result.latency.p95),
                    ReportNumbers.milliseconds(result.latency.max),
                    result.name == "fts5" ? "peer" : versus.map { ReportNumbers.versus($0.mine.median, peer: $0.fts5.median) } ?? "–",
                    result.name == "fts5" ? "peer" : versus.map { ReportNumbers.versus($0.mine.p95, peer: $0.fts5.p95) } ?? "–",
                ]
            },
            numericColumns: [1, 2, 3, 4])
    }

    /// Each strategy's median by size: how search time grows with the journal.
    var growthTable: TextTable {
        let names = report.sizes.first?.warm.strategies.map(\.name) ?? []
        return TextTable(
            headers: ["median ms"] + report.sizes.map { Formatting.grouped($0.entries) },
            rows: names.map { name in
                [name]
                    + report.sizes.map { size in
                        size.warm.strategy(name).map { ReportNumbers.milliseconds($0.latency.median) } ?? "–"
                    }
            },
            numericColumns: Set(1...max(1, report.sizes.count)))
    }

    var coldTable: TextTable {
        TextTable(
            headers: ["entries", "query", "journal search ms", "sqlite3 FTS5 ms", "journal / sqlite3"],
            rows: report.sizes.flatMap { size in
                size.cold.map { cold in
                    [
                        Formatting.grouped(size.entries), cold.query, ReportNumbers.milliseconds(cold.journalSeconds),
                        ReportNumbers.milliseconds(cold.sqliteSeconds), Self.ratio(cold.sqliteSeconds.map { cold.journalSeconds / $0 }),
                    ]
                }
            },
            numericColumns: [0, 2, 3, 4])
    }

    var coldSummaryTable: TextTable {
        TextTable(
            headers: [
                "entries", "journal search the", "sqlite3 the", "ratio", "journal median over queries", "sqlite3 median over queries",
            ],
            rows: report.sizes.map { size in
                let the = Self.coldThe(size)
                return [
                    Formatting.grouped(size.entries), ReportNumbers.milliseconds(the?.journalSeconds),
                    ReportNumbers.milliseconds(the?.sqliteSeconds),
                    Self.ratio(the.flatMap { cold in cold.sqliteSeconds.map { cold.journalSeconds / $0 } }),
                    ReportNumbers.milliseconds(LatencySummary(size.cold.map(\.journalSeconds)).median),
                    ReportNumbers.milliseconds(
                        size.cold.compactMap(\.sqliteSeconds).isEmpty ? nil : LatencySummary(size.cold.compactMap(\.sqliteSeconds)).median),
                ]
            },
            numericColumns: Set(0...5))
    }

    /// Whole processes that open no journal, each next to the `sqlite3` process of the same rounds.
    var startupTable: TextTable {
        let sqlite = report.startup?.sqlite
        let rows = (report.startup?.rows ?? []) + (sqlite.map { [$0] } ?? [])
        return TextTable(
            headers: ["process", "median ms", "ratio to sqlite3"],
            rows: rows.map { row in
                [row.command, ReportNumbers.milliseconds(row.seconds), Self.ratio(sqlite.map { row.seconds / $0.seconds })]
            },
            numericColumns: [1, 2])
    }

    /// Keys typed into the full-screen search: from each key to the frame showing its answer.
    var typingTable: TextTable {
        TextTable(
            headers: ["entries", "strategy", "keys", "median ms", "p95 ms", "max ms", "typed again: median ms", "p95 ms", "max ms"],
            rows: report.sizes.flatMap { size in
                size.typing.map { typed in
                    [
                        Formatting.grouped(size.entries), typed.strategy, Formatting.grouped(typed.keys.count),
                        ReportNumbers.milliseconds(typed.latency.median), ReportNumbers.milliseconds(typed.latency.p95),
                        ReportNumbers.milliseconds(typed.latency.max), ReportNumbers.milliseconds(typed.latencyAgain.median),
                        ReportNumbers.milliseconds(typed.latencyAgain.p95), ReportNumbers.milliseconds(typed.latencyAgain.max),
                    ]
                }
            },
            numericColumns: [0, 2, 3, 4, 5, 6, 7, 8])
    }

    /// A single add, durable when it returns: in the benchmark's process, and as a whole process.
    var writesTable: TextTable {
        TextTable(
            headers: ["entries", "adds", "Journal.add median ms", "p95 ms", "max ms", "journal add process median ms", "p95 ms", "max ms"],
            rows: report.sizes.compactMap { size in
                guard let writes = size.writes else { return nil }
                return [
                    Formatting.grouped(size.entries), Formatting.grouped(writes.inProcess.samples),
                    ReportNumbers.milliseconds(writes.inProcess.median), ReportNumbers.milliseconds(writes.inProcess.p95),
                    ReportNumbers.milliseconds(writes.inProcess.max), ReportNumbers.milliseconds(writes.process.median),
                    ReportNumbers.milliseconds(writes.process.p95), ReportNumbers.milliseconds(writes.process.max),
                ]
            },
            numericColumns: Set(0...7))
    }

    /// On this day of earlier years (`list --on-this-day`, the newest 20 and the total): through
    /// the journal, next to a plain list of the newest 20 and to a scan of every entry's date.
    var onThisDayTable: TextTable {
        TextTable(
            headers: [
                "entries", "days", "found (median)", "on this day ms (median)", "newest 20 ms", "ratio", "scan ms (median)",
                "scan / on this day", "journal list --on-this-day process ms",
            ],
            rows: report.sizes.compactMap { size in
                size.onThisDay.map { cost in
                    [
                        Formatting.grouped(size.entries), String(cost.days.count),
                        Formatting.grouped(Int(LatencySummary(cost.found.map(Double.init)).median)),
                        ReportNumbers.milliseconds(cost.median), ReportNumbers.milliseconds(cost.newestList),
                        Self.ratio(cost.median / max(cost.newestList, 1e-9)), ReportNumbers.milliseconds(cost.scanMedian),
                        Self.ratio(cost.scanMedian / max(cost.median, 1e-9)), ReportNumbers.milliseconds(cost.process),
                    ]
                }
            },
            numericColumns: Set(0...8))
    }

    /// The same journal encrypted, next to the plain one (`--encrypted`): import, size, warm
    /// and cold searches by the default strategy, and the key derivation a cold search pays.
    var encryptionTable: TextTable {
        TextTable(
            headers: [
                "entries", "import s: plain", "encrypted", "ratio", "bytes: plain", "encrypted", "ratio", "warm median ms: plain",
                "encrypted", "ratio", "warm p95 ms: plain", "encrypted", "ratio", "cold median ms: plain", "encrypted, KDF excluded",
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
                        ReportNumbers.milliseconds(cost.plainWarm.median), ReportNumbers.milliseconds(cost.encryptedWarm.median),
                        Self.ratio(cost.encryptedWarm.median / max(cost.plainWarm.median, 1e-9)),
                        ReportNumbers.milliseconds(cost.plainWarm.p95), ReportNumbers.milliseconds(cost.encryptedWarm.p95),
                        Self.ratio(cost.encryptedWarm.p95 / max(cost.plainWarm.p95, 1e-9)), ReportNumbers.milliseconds(cost.plainCold),
                        ReportNumbers.milliseconds(cost.encryptedCold), Self.ratio(cost.encryptedCold / max(cost.plainCold, 1e-9)),
                        ReportNumbers.milliseconds(cost.keyDerivationSeconds)
                            + " (\(cost.cost.passes) passes, \(cost.cost.memoryBytes >> 20) MiB)",
                    ]
                }
            },
            numericColumns: Set(0...16))
    }

    /// The query syntax by kind: the default strategy's per-query medians over the kind, and
    /// FTS5's best setup answering the same queries.
    var syntaxTable: TextTable {
        TextTable(
            headers: [
                "entries", "kind", "queries", "strategy median ms", "p95 ms", "FTS5 best median ms", "p95 ms", "FTS5 / strategy (median)",
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
    var syntaxQueryTable: TextTable {
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
    var bestFTS5Table: TextTable {
        let standard = SearchStrategies.standard.name
        return TextTable(
            headers: [
                "entries", "build", "file B/entry", "best fts5 warm median ms", "p95 ms", "\(standard) median ms", "p95 ms",
                "best fts5 / \(standard) (median)", "naive fts5 median ms", "cold: journal / sqlite3 best (median)", "worst query",
            ],
            rows: report.sizes.compactMap { size in
                guard let best = size.fts5Best else { return nil }
                let versus = size.versusBestFTS5(standard)
                let cold = size.coldRatiosVersusBestFTS5.map(\.ratio)
                return [
                    Formatting.grouped(size.entries), ReportNumbers.seconds(best.buildSeconds), Self.perEntry(best.bytes, size),
                    ReportNumbers.milliseconds(versus?.best.median), ReportNumbers.milliseconds(versus?.best.p95),
                    ReportNumbers.milliseconds(versus?.mine.median), ReportNumbers.milliseconds(versus?.mine.p95),
                    Self.ratio(versus.map { $0.best.median / $0.mine.median }),
                    ReportNumbers.milliseconds(size.fts5Warm?.latency.median),
                    Self.ratio(cold.isEmpty ? nil : LatencySummary(cold).median), Self.ratio(cold.max()),
                ]
            },
            numericColumns: Set(0...10))
    }

    var filteredTable: TextTable {
        TextTable(
            headers: [
                "entries", "strategy", "limited to", "entries passing", "queries", "unlimited median ms", "limited median ms",
                "limited / unlimited", "worst query",
            ],
            rows: report.sizes.flatMap { size in
                size.filtered.map { search in
                    [
                        Formatting.grouped(size.entries), search.strategy, search.filter,
                        "\(Formatting.grouped(search.passing)) (\(String(format: "%.1f", 100 * search.share))%)",
                        String(search.queries.count),
                        ReportNumbers.milliseconds(search.unlimitedMedian), ReportNumbers.milliseconds(search.limitedMedian),
                        Self.ratio(search.ratio), Self.ratio(search.worstRatio),
                    ]
                }
            },
            numericColumns: [0, 3, 4, 5, 6, 7, 8])
    }

    /// The issue's targets, checked at every size of a million entries or more (or the largest).
    var targetsTable: TextTable {
        let checked = report.sizes.filter { $0.entries >= 1_000_000 }
        let sizes = checked.isEmpty ? Array(report.sizes.suffix(1)) : checked
        var rows: [[String]] = []
        func row(_ size: BenchmarkReport.Size, _ target: String, _ measured: String, _ met: Bool?) {
            rows.append([Formatting.grouped(size.entries), target, measured, met.map { $0 ? "met" : "MISSED" } ?? "not measured"])
        }
        for size in sizes {
            let prefix = size.warm.strategy("prefix")
            row(
                size, "prefix median ≤ 2 ms", ReportNumbers.milliseconds(prefix?.latency.median) + " ms",
                prefix.map { $0.latency.median <= 0.002 })
            row(size, "prefix p95 ≤ 20 ms", ReportNumbers.milliseconds(prefix?.latency.p95) + " ms", prefix.map { $0.latency.p95 <= 0.020 })
            let prefixVersus = prefix.flatMap(size.versusFTS5)
            row(
                size, "prefix ≥ 3× faster than fts5 (median)",
                prefixVersus.map { String(format: "%.1f×", $0.fts5.median / $0.mine.median) } ?? "–",
                prefixVersus.map { $0.fts5.median >= 3 * $0.mine.median })
            row(
                size, "prefix ≥ 3× faster than fts5 (p95)", prefixVersus.map { String(format: "%.1f×", $0.fts5.p95 / $0.mine.p95) } ?? "–",
                prefixVersus.map { $0.fts5.p95 >= 3 * $0.mine.p95 })
            let tokenVersus = size.warm.strategy("token").flatMap(size.versusFTS5)
            row(
                size, "token median no slower than fts5",
                tokenVersus.map { "\(ReportNumbers.milliseconds($0.mine.median)) vs \(ReportNumbers.milliseconds($0.fts5.median)) ms" }
                    ?? "–",
                tokenVersus.map { $0.mine.median <= $0.fts5.median })
            if let stored = size.warm.strategy("contains[n]"), let folded = size.warm.strategy("contains[cd]") {
                let shared = stored.timedQueries.intersection(folded.timedQueries)
                let (n, cd) = (stored.latency(on: shared).median, folded.latency(on: shared).median)
                row(
                    size, "contains[n] ≥ 3× faster than contains[cd]",
                    shared.isEmpty ? "–" : String(format: "%.1f× ", cd / n) + "(\(Formatting.count(shared.count, "query", "queries")))",
                    shared.isEmpty ? nil : cd >= 3 * n)
            }
            let importRatio = Self.importRatio(size)
            row(size, "import at least as fast as FTS5 indexing alone", Self.ratio(importRatio), importRatio.map { $0 >= 1 })
            row(size, "import peak memory < 300 MB", Formatting.bytes(size.importPeakBytes), size.importPeakBytes < 300_000_000)
            let the = Self.coldThe(size)
            row(
                size, "cold journal search the --limit 20 --json ≤ 30 ms", ReportNumbers.milliseconds(the?.journalSeconds) + " ms",
                the.map { $0.journalSeconds <= 0.030 })
            let coldRatio = the.flatMap { cold in cold.sqliteSeconds.map { cold.journalSeconds / $0 } }
            row(size, "cold within 1.5× of the sqlite3 process", Self.ratio(coldRatio), coldRatio.map { $0 <= 1.5 })
            let storeRatio = size.fts5IndexBytes.map { Double(size.searchStoreBytes) / Double($0) }
            row(size, "search store ≤ 1.5× the FTS5 index", Self.ratio(storeRatio), storeRatio.map { $0 <= 1.5 })
            let best = size.versusBestFTS5("prefix")
            row(
                size, "prefix ≥ 3× faster than FTS5's best setup (median)",
                best.map { String(format: "%.1f×", $0.best.median / $0.mine.median) } ?? "–",
                best.map { $0.best.median >= 3 * $0.mine.median })
            row(
                size, "prefix ≥ 3× faster than FTS5's best setup (p95)",
                best.map { String(format: "%.1f×", $0.best.p95 / $0.mine.p95) } ?? "–",
                best.map { $0.best.p95 >= 3 * $0.mine.p95 })
            let coldBest = size.coldRatiosVersusBestFTS5.map(\.ratio)
            row(
                size, "cold journal search ≤ 1.5× sqlite3 on FTS5's best setup (median over queries)",
                Self.ratio(coldBest.isEmpty ? nil : LatencySummary(coldBest).median),
                coldBest.isEmpty ? nil : LatencySummary(coldBest).median <= 1.5)
            row(
                size, "cold journal search ≤ 3× sqlite3 on FTS5's best setup (every query)", Self.ratio(coldBest.max()),
                coldBest.max().map { $0 <= 3 })
            let buildRatio = size.fts5Best.map { $0.buildSeconds / size.importSeconds }
            row(size, "import ≥ 2× faster than FTS5's best-setup build", Self.ratio(buildRatio), buildRatio.map { $0 >= 2 })
            let indexRatio = size.fts5Best?.indexBytes.map { Double(size.searchStoreBytes) / Double($0) }
            row(size, "search store ≤ 1× FTS5's best-setup index", Self.ratio(indexRatio), indexRatio.map { $0 <= 1 })
            let typed = size.typing.first { $0.strategy == "prefix" }?.latency
            row(
                size, "prefix: key press → redrawn screen ≤ 16 ms (median)", ReportNumbers.milliseconds(typed?.median) + " ms",
                typed.map { $0.median <= 0.016 })
            row(
                size, "prefix: key press → redrawn screen ≤ 16 ms (p95)", ReportNumbers.milliseconds(typed?.p95) + " ms",
                typed.map { $0.p95 <= 0.016 })
            if let cost = size.encryption {
                let importRatio = cost.encryptedImportSeconds / cost.plainImportSeconds
                row(size, "encrypted import ≤ 1.5× the plain one", Self.ratio(importRatio), importRatio <= 1.5)
                let bytesRatio = Double(cost.encryptedBytes) / Double(max(cost.plainBytes, 1))
                row(size, "encrypted journal ≤ 1.1× the plain one on disk", Self.ratio(bytesRatio), bytesRatio <= 1.1)
                let warmMedian = cost.encryptedWarm.median / max(cost.plainWarm.median, 1e-9)
                row(size, "encrypted warm search ≤ 1.3× plain (median)", Self.ratio(warmMedian), warmMedian <= 1.3)
                let warmP95 = cost.encryptedWarm.p95 / max(cost.plainWarm.p95, 1e-9)
                row(size, "encrypted warm search ≤ 1.3× plain (p95)", Self.ratio(warmP95), warmP95 <= 1.3)
                let coldRatio = cost.encryptedCold / max(cost.plainCold, 1e-9)
                row(size, "encrypted cold search, KDF excluded, ≤ 1.5× plain", Self.ratio(coldRatio), coldRatio <= 1.5)
            }
            let year = size.filtered.first { $0.strategy == SearchStrategies.standard.name }
            row(
                size, "\(SearchStrategies.standard.name) limited to a year no slower than unlimited (median)", Self.ratio(year?.ratio),
                year.map { $0.ratio <= 1 })
            let month = size.filtered.first { $0.strategy == "contains[n]" }
            row(
                size, "contains[n] limited to a month reads only it: time ≤ 3× its share",
                month.map { String(format: "%.4f vs share %.4f", $0.ratio, $0.share) } ?? "–", month.map { $0.ratio <= 3 * $0.share })
        }
        return TextTable(headers: ["entries", "target", "measured", ""], rows: rows, numericColumns: [0])
    }

    private var facts: [String] {
        [
            "measured: \(report.date.iso8601) on \(context.machine)",
            "command: \(context.command)",
            "journals: `journal generate --seed \(report.seed)`; \(report.queries.count) queries chosen from the first journal (\(report.queries.map(\.text).joined(separator: ", ")))",
            "warm: \(report.runs) timed runs per query after one untimed, exact total + newest 20, in one process; a strategy stops after \(Int(report.budgetSeconds)) s per size",
            "cold: median of \(report.coldRuns) whole processes per query; journal uses its default strategy (\(SearchStrategies.standard.name))",
        ]
    }

    // MARK: Formats

    func text(_ terminal: Terminal) -> String {
        var parts = [
            facts.joined(separator: "\n"),
            terminal.bold("Import") + "\n" + importTable.terminal(terminal),
            terminal.bold("A single add (durable on return)") + "\n" + writesTable.terminal(terminal),
            terminal.bold("Sizes") + "\n" + sizesTable.terminal(terminal),
        ]
        for size in report.sizes {
            parts.append(
                terminal.bold("Warm search, \(Formatting.grouped(size.entries)) entries") + "\n" + warmTable(size).terminal(terminal))
        }
        parts.append(terminal.bold("FTS5 in its best setup (same queries)") + "\n" + bestFTS5Table.terminal(terminal))
        parts.append(terminal.bold("The query syntax against FTS5's best setup (warm, in process)") + "\n" + syntaxTable.terminal(terminal))
        parts.append(terminal.bold("Filtered search (same process, same queries)") + "\n" + filteredTable.terminal(terminal))
        parts.append(terminal.bold("Start-up (whole processes, no journal)") + "\n" + startupTable.terminal(terminal))
        parts.append(terminal.bold("Cold search (whole processes)") + "\n" + coldSummaryTable.terminal(terminal))
        parts.append(terminal.bold("Typing in the full-screen search (key press → redrawn screen)") + "\n" + typingTable.terminal(terminal))
        parts.append(terminal.bold("On this day (same process)") + "\n" + onThisDayTable.terminal(terminal))
        if report.sizes.contains(where: { $0.encryption != nil }) {
            parts.append(terminal.bold("Encrypted at rest (the same journal)") + "\n" + encryptionTable.terminal(terminal))
        }
        parts.append(terminal.bold("Targets") + "\n" + targetsTable.terminal(terminal))
        return parts.joined(separator: "\n\n")
    }

    var markdown: String {
        var parts = [
            "## journal bench", facts.map { "- " + $0 }.joined(separator: "\n"),
            "### Import", importTable.markdown, "### A single add (durable on return)", writesTable.markdown,
            "### Sizes", sizesTable.markdown,
        ]
        for size in report.sizes {
            parts += ["### Warm search, \(Formatting.grouped(size.entries)) entries", warmTable(size).markdown]
        }
        parts += [
            "### Median by journal size", growthTable.markdown,
            "### FTS5 in its best setup (same queries)", bestFTS5Table.markdown,
            "### The query syntax against FTS5's best setup (warm, in process)", syntaxTable.markdown, syntaxQueryTable.markdown,
            "### Filtered search (same process, same queries)", filteredTable.markdown,
            "### Start-up (whole processes, no journal)", startupTable.markdown,
            "### Cold search (whole processes)", coldSummaryTable.markdown,
            "### Typing in the full-screen search (key press → redrawn screen)", typingTable.markdown,
            "### On this day (same process)", onThisDayTable.markdown,
        ]
        if report.sizes.contains(where: { $0.encryption != nil }) {
            parts += ["### Encrypted at rest (the same journal)", encryptionTable.markdown]
        }
        parts += [
            "### Targets", targetsTable.markdown,
        ]
        return parts.joined(separator: "\n\n")
    }

    var json: JSONValue {
        .object([
            "date": .string(report.date.iso8601),
            "command": .string(context.command),
            "machine": .string(context.machine),
            "seed": .integer(Int(report.seed)),
            "runs": .integer(report.runs),
            "cold_runs": .integer(report.coldRuns),
            "budget_seconds": .number(report.budgetSeconds),
            "startup": report.startup.map { startup in
                .object([
                    "runs": .integer(startup.runs),
                    "processes": .array(
                        startup.rows.map {
                            .object(["command": .string($0.command), "median_ms": ReportNumbers.milliseconds(json: $0.seconds)])
                        }),
                    "sqlite3_ms": startup.sqlite.map { ReportNumbers.milliseconds(json: $0.seconds) } ?? .null,
                ])
            } ?? .null,
            "queries": .array(report.queries.map { .object(["text": .string($0.text), "kind": .string($0.kind)]) }),
            "sizes": .array(
                report.sizes.map { size in
                    .object([
                        "entries": .integer(size.entries),
                        "input_bytes": .integer(size.inputBytes),
                        "distinct_tokens": .integer(size.distinctTokens),
                        "import_seconds": .number(size.importSeconds),
                        "import_peak_bytes": .integer(size.importPeakBytes),
                        "fts5_index_seconds": size.fts5IndexSeconds.map(JSONValue.number) ?? .null,
                        "main_store_bytes": .integer(size.mainStoreBytes),
                        "search_store_bytes": .integer(size.searchStoreBytes),
                        "fts5_index_bytes": size.fts5IndexBytes.map(JSONValue.integer) ?? .null,
                        "prefix_table_bytes": size.prefixTableBytes.map(JSONValue.integer) ?? .null,
                        "warm": .array(
                            size.warm.strategies.map { result in
                                .object([
                                    "strategy": .string(result.name),
                                    "queries_timed": .integer(result.timedQueries.count),
                                    "median_ms": ReportNumbers.milliseconds(json: result.latency.median),
                                    "p95_ms": ReportNumbers.milliseconds(json: result.latency.p95),
                                    "max_ms": ReportNumbers.milliseconds(json: result.latency.max),
                                    "fts5_median_ms_same_queries": ReportNumbers.milliseconds(json: size.versusFTS5(result)?.fts5.median),
                                    "fts5_p95_ms_same_queries": ReportNumbers.milliseconds(json: size.versusFTS5(result)?.fts5.p95),
                                    "queries": .array(
                                        result.queries.map {
                                            .object([
                                                "query": .string($0.query), "total": $0.total.map(JSONValue.integer) ?? .null,
                                                "median_ms": ReportNumbers.milliseconds(json: $0.medianSeconds),
                                                "skipped": .bool($0.skipped),
                                            ])
                                        }),
                                ])
                            }),
                        "fts5_best": size.fts5Best.map { best in
                            .object([
                                "build_seconds": .number(best.buildSeconds), "bytes": .integer(best.bytes),
                                "index_bytes": best.indexBytes.map { .integer($0) } ?? .null,
                                "warm": .array(
                                    best.warm.map {
                                        .object(["query": .string($0.query), "median_ms": ReportNumbers.milliseconds(json: $0.seconds)])
                                    }),
                                "cold": .array(
                                    best.cold.map {
                                        .object(["query": .string($0.query), "sqlite3_ms": ReportNumbers.milliseconds(json: $0.seconds)])
                                    }),
                            ])
                        } ?? .null,
                        "filtered": .array(
                            size.filtered.map {
                                .object([
                                    "strategy": .string($0.strategy), "limited_to": .string($0.filter), "passing": .integer($0.passing),
                                    "queries": .array($0.queries.map(JSONValue.string)),
                                    "unlimited_median_ms": ReportNumbers.milliseconds(json: $0.unlimitedMedian),
                                    "limited_median_ms": ReportNumbers.milliseconds(json: $0.limitedMedian),
                                    "worst_ratio": .number($0.worstRatio),
                                ])
                            }),
                        "syntax": size.syntax.map { syntax in
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
                                                        "fts5_best_ms": ReportNumbers.milliseconds(json: $0.fts5Seconds),
                                                    ])
                                                }),
                                        ])
                                    }),
                            ])
                        } ?? .null,
                        "encryption": size.encryption.map { cost in
                            .object([
                                "plain_import_s": .number(cost.plainImportSeconds),
                                "encrypted_import_s": .number(cost.encryptedImportSeconds),
                                "plain_bytes": .integer(cost.plainBytes), "encrypted_bytes": .integer(cost.encryptedBytes),
                                "plain_warm_median_ms": ReportNumbers.milliseconds(json: cost.plainWarm.median),
                                "encrypted_warm_median_ms": ReportNumbers.milliseconds(json: cost.encryptedWarm.median),
                                "plain_warm_p95_ms": ReportNumbers.milliseconds(json: cost.plainWarm.p95),
                                "encrypted_warm_p95_ms": ReportNumbers.milliseconds(json: cost.encryptedWarm.p95),
                                "plain_cold_median_ms": ReportNumbers.milliseconds(json: cost.plainCold),
                                "encrypted_cold_median_ms_without_kdf": ReportNumbers.milliseconds(json: cost.encryptedCold),
                                "kdf_ms": ReportNumbers.milliseconds(json: cost.keyDerivationSeconds),
                                "kdf_passes": .integer(cost.cost.passes), "kdf_memory_bytes": .integer(cost.cost.memoryBytes),
                            ])
                        } ?? .null,
                        "on_this_day": size.onThisDay.map { cost in
                            .object([
                                "days": .array(cost.days.map(JSONValue.string)), "found": .array(cost.found.map(JSONValue.integer)),
                                "median_ms": ReportNumbers.milliseconds(json: cost.median),
                                "newest_list_ms": ReportNumbers.milliseconds(json: cost.newestList),
                                "scan_median_ms": ReportNumbers.milliseconds(json: cost.scanMedian),
                                "process_ms": ReportNumbers.milliseconds(json: cost.process),
                            ])
                        } ?? .null,
                        "writes": size.writes.map { writes in
                            .object([
                                "adds": .integer(writes.inProcess.samples),
                                "in_process_median_ms": ReportNumbers.milliseconds(json: writes.inProcess.median),
                                "in_process_p95_ms": ReportNumbers.milliseconds(json: writes.inProcess.p95),
                                "in_process_max_ms": ReportNumbers.milliseconds(json: writes.inProcess.max),
                                "process_median_ms": ReportNumbers.milliseconds(json: writes.process.median),
                                "process_p95_ms": ReportNumbers.milliseconds(json: writes.process.p95),
                                "process_max_ms": ReportNumbers.milliseconds(json: writes.process.max),
                            ])
                        } ?? .null,
                        "typing": .array(
                            size.typing.map {
                                .object([
                                    "strategy": .string($0.strategy), "keys": .integer($0.keys.count),
                                    "median_ms": ReportNumbers.milliseconds(json: $0.latency.median),
                                    "p95_ms": ReportNumbers.milliseconds(json: $0.latency.p95),
                                    "max_ms": ReportNumbers.milliseconds(json: $0.latency.max),
                                    "again_median_ms": ReportNumbers.milliseconds(json: $0.latencyAgain.median),
                                    "again_p95_ms": ReportNumbers.milliseconds(json: $0.latencyAgain.p95),
                                    "again_max_ms": ReportNumbers.milliseconds(json: $0.latencyAgain.max),
                                ])
                            }),
                        "cold": .array(
                            size.cold.map {
                                .object([
                                    "query": .string($0.query), "journal_ms": ReportNumbers.milliseconds(json: $0.journalSeconds),
                                    "sqlite3_ms": ReportNumbers.milliseconds(json: $0.sqliteSeconds),
                                ])
                            }),
                    ])
                }),
        ])
    }

    var html: String {
        var sections: [(heading: String, body: String)] = [
            ("", "<ul>" + facts.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"),
            ("Targets", targetsTable.html),
            ("Warm search: median by journal size (log–log)", warmChart),
            ("Import and FTS5 indexing time by journal size", importChart),
            ("Bytes per entry by journal size", sizeChart),
            ("Cold search: whole processes for \"the\"", coldChart),
            ("Import", importTable.html),
            ("A single add (durable on return)", writesTable.html),
            ("Sizes", sizesTable.html),
            ("Median by journal size", growthTable.html),
            ("FTS5 in its best setup (same queries)", bestFTS5Table.html),
            ("The query syntax against FTS5's best setup (warm, in process)", syntaxTable.html + syntaxQueryTable.html),
            ("Filtered search (same process, same queries)", filteredTable.html),
        ]
        for size in report.sizes {
            sections.append(("Warm search, \(Formatting.grouped(size.entries)) entries", warmTable(size).html))
        }
        sections.append(("Start-up (whole processes, no journal)", startupTable.html))
        sections.append(("Cold search (whole processes)", coldSummaryTable.html + coldTable.html))
        sections.append(("Typing in the full-screen search (key press → redrawn screen)", typingTable.html))
        sections.append(("On this day (same process)", onThisDayTable.html))
        if report.sizes.contains(where: { $0.encryption != nil }) {
            sections.append(("Encrypted at rest (the same journal)", encryptionTable.html))
        }
        return HTMLPage.render(title: "journal bench", sections: sections)
    }

    private static let palette = [
        "#c05621", "#dd6b20", "#b7791f", "#975a16", "#9c4221", "#6b46c1", "#805ad5", "#9f7aea",
        "#553c9a", "#2b6cb0", "#2c7a7b", "#e53e3e",
    ]

    private func chart(_ series: [LogLineChart.Series], y: @escaping (Double) -> String) -> String {
        LogLineChart(series: series, xLabel: { Formatting.grouped(Int($0.rounded())) }, yLabel: y).svg
    }

    private var warmChart: String {
        let names = report.sizes.first?.warm.strategies.map(\.name) ?? []
        return chart(
            names.enumerated().map { index, name in
                LogLineChart.Series(
                    label: name, color: Self.palette[(SearchStrategies.all.firstIndex { $0.name == name } ?? index) % Self.palette.count],
                    points: report.sizes.compactMap { size in size.warm.strategy(name).map { (Double(size.entries), $0.latency.median) } },
                    dashed: name == "fts5")
            }, y: { ReportNumbers.seconds($0) })
    }

    private var importChart: String {
        chart(
            [
                .init(label: "journal import", color: "#2b6cb0", points: report.sizes.map { (Double($0.entries), $0.importSeconds) }),
                .init(
                    label: "FTS5 indexing alone", color: "#e53e3e",
                    points: report.sizes.compactMap { size in size.fts5IndexSeconds.map { (Double(size.entries), $0) } }, dashed: true),
            ], y: { ReportNumbers.seconds($0) })
    }

    private var sizeChart: String {
        func series(_ label: String, _ color: String, _ bytes: (BenchmarkReport.Size) -> Int?, dashed: Bool = false) -> LogLineChart.Series
        {
            .init(
                label: label, color: color,
                points: report.sizes.compactMap { size in bytes(size).map { (Double(size.entries), Double($0) / Double(size.entries)) } },
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
                    points: report.sizes.compactMap { size in Self.coldThe(size).map { (Double(size.entries), $0.journalSeconds) } }),
                .init(
                    label: "sqlite3 FTS5 the", color: "#e53e3e",
                    points: report.sizes.compactMap { size in Self.coldThe(size)?.sqliteSeconds.map { (Double(size.entries), $0) } },
                    dashed: true),
            ], y: { ReportNumbers.seconds($0) })
    }
}
