import Foundation
import JournalKit
import TextReport

/// A target the benchmark holds the journal to at a size: what it says, and how a size's
/// figures meet it. ``all`` lists them; the report checks each at every size of a million
/// entries or more (or the largest measured).
package struct BenchmarkTarget: Sendable {
    /// What a size's figures say against a target: the figure, and whether it meets the target
    /// (nil: not measured).
    package struct Outcome {
        package let measured: String
        package let met: Bool?
    }

    /// The target as the report states it: "prefix median ≤ 2 ms".
    package let label: String
    /// The outcome at a size, or nil when the target does not apply there (no encrypted run).
    package let check: @Sendable (BenchmarkReport.Size) -> Outcome?

    init(_ label: String, check: @escaping @Sendable (BenchmarkReport.Size) -> Outcome?) {
        self.label = label
        self.check = check
    }

    /// A strategy's warm latency within `limit` seconds: `percentile` picks median or p95.
    private static func latency(
        _ id: StrategyID, _ name: String, atMost limit: Double,
        _ percentile: @escaping @Sendable (LatencySummary) -> Double
    ) -> BenchmarkTarget {
        BenchmarkTarget("\(id) \(name) ≤ \(ReportNumbers.milliseconds(limit)) ms") { size in
            let result = size.warm.strategy(id)
            return Outcome(
                measured: ReportNumbers.milliseconds(result.map { percentile($0.latency) }) + " ms",
                met: result.map { percentile($0.latency) <= limit })
        }
    }

    /// `id` at least `factor` times faster than the FTS5 peer in the same process.
    private static func fasterThanFTS5(
        _ id: StrategyID, by factor: Double, _ name: String,
        _ percentile: @escaping @Sendable (LatencySummary) -> Double
    ) -> BenchmarkTarget {
        BenchmarkTarget("\(id) ≥ \(Int(factor))× faster than fts5 (\(name))") { size in
            let versus = size.warm.strategy(id).flatMap(size.versusFTS5)
            return Outcome(
                measured: versus.map { String(format: "%.1f×", percentile($0.fts5) / percentile($0.mine)) } ?? "–",
                met: versus.map { percentile($0.fts5) >= factor * percentile($0.mine) })
        }
    }

    /// `id` at least `factor` times faster than FTS5 in its best setup.
    private static func fasterThanBestFTS5(
        _ id: StrategyID, by factor: Double, _ name: String,
        _ percentile: @escaping @Sendable (LatencySummary) -> Double
    ) -> BenchmarkTarget {
        BenchmarkTarget("\(id) ≥ \(Int(factor))× faster than FTS5's best setup (\(name))") { size in
            let best = size.versusBestFTS5(id)
            return Outcome(
                measured: best.map { String(format: "%.1f×", percentile($0.best) / percentile($0.mine)) } ?? "–",
                met: best.map { percentile($0.best) >= factor * percentile($0.mine) })
        }
    }

    /// A ratio of two figures at most (or, with `atLeast`, at least) `limit`.
    private static func ratio(
        _ label: String, _ limit: Double, atLeast: Bool = false,
        _ value: @escaping @Sendable (BenchmarkReport.Size) -> Double?
    ) -> BenchmarkTarget {
        BenchmarkTarget(label) { size in
            let ratio = value(size)
            return Outcome(
                measured: ratio.map(Self.format) ?? "–", met: ratio.map { atLeast ? $0 >= limit : $0 <= limit })
        }
    }

    /// A ratio of the encrypted journal's figure to the plain one's, at most `limit`, where
    /// the run measured it.
    private static func encrypted(
        _ label: String, atMost limit: Double, _ value: @escaping @Sendable (EncryptionCost) -> Double
    ) -> BenchmarkTarget {
        BenchmarkTarget(label) { size in
            size.encryption.map { cost in Outcome(measured: format(value(cost)), met: value(cost) <= limit) }
        }
    }

    /// A ratio as the report prints it.
    package static func format(_ value: Double) -> String { String(format: value < 0.1 ? "%.4f" : "%.2f", value) }

    private static let median: @Sendable (LatencySummary) -> Double = { $0.median }
    private static let p95: @Sendable (LatencySummary) -> Double = { $0.p95 }

    /// Every target, in the order the report lists them.
    package static let all: [BenchmarkTarget] = [
        latency(.prefix, "median", atMost: 0.002, median),
        latency(.prefix, "p95", atMost: 0.020, p95),
        fasterThanFTS5(.prefix, by: 3, "median", median),
        fasterThanFTS5(.prefix, by: 3, "p95", p95),
        BenchmarkTarget("\(StrategyID.token) median no slower than fts5") { size in
            let versus = size.warm.strategy(.token).flatMap(size.versusFTS5)
            return Outcome(
                measured: versus.map {
                    "\(ReportNumbers.milliseconds($0.mine.median)) vs \(ReportNumbers.milliseconds($0.fts5.median)) ms"
                }
                    ?? "–",
                met: versus.map { $0.mine.median <= $0.fts5.median })
        },
        BenchmarkTarget("\(StrategyID.containsN) ≥ 3× faster than \(StrategyID.containsCD)") { size in
            guard let stored = size.warm.strategy(.containsN), let folded = size.warm.strategy(.containsCD) else {
                return nil
            }
            let shared = stored.timedQueries.intersection(folded.timedQueries)
            let (n, cd) = (stored.latency(on: shared).median, folded.latency(on: shared).median)
            return Outcome(
                measured: shared.isEmpty
                    ? "–"
                    : String(format: "%.1f× ", cd / n) + "(\(Formatting.count(shared.count, "query", "queries")))",
                met: shared.isEmpty ? nil : cd >= 3 * n)
        },
        ratio("import at least as fast as FTS5 indexing alone", 1, atLeast: true) { size in
            size.fts5IndexSeconds.map { $0 / size.importSeconds }
        },
        ratio("import into a large journal at least as fast as FTS5's insert (alone)", 1, atLeast: true) { size in
            size.duringImport.flatMap { during in during.fts5.map { $0.aloneSeconds / during.journal.aloneSeconds } }
        },
        BenchmarkTarget("searches during an import: every answer before or after it") { size in
            size.duringImport.map { during in
                Outcome(
                    measured:
                        "\(Formatting.grouped(during.journal.partial)) of \(Formatting.grouped(during.journal.during.samples)) part of it",
                    met: during.journal.partial == 0)
            }
        },
        ratio("search p95 during an import ≤ 1.3× idle", 1.3) { size in
            size.duringImport.map { $0.journal.during.p95 / $0.journal.idle.p95 }
        },
        BenchmarkTarget("no search over 50 ms during an import") { size in
            size.duringImport.map { during in
                Outcome(
                    measured: ReportNumbers.milliseconds(during.journal.during.max) + " ms",
                    met: during.journal.during.max <= 0.050)
            }
        },
        ratio("import peak disk ≤ 1.5× the journal", 1.5) { $0.importPeakDiskRatio },
        ratio("the same undated file imported again ≤ 2× its import", 2) { $0.reimport?.ratio },
        ratio("a new device takes the entries in through sync at import speed (≤ 1.1× their import)", 1.1) {
            $0.syncTakeIn?.ratio
        },
        BenchmarkTarget("import peak memory < 300 MB") { size in
            Outcome(measured: Formatting.bytes(size.importPeakBytes), met: size.importPeakBytes < 300_000_000)
        },
        BenchmarkTarget("cold journal search the --limit 20 --json ≤ 30 ms") { size in
            let the = size.coldThe
            return Outcome(
                measured: ReportNumbers.milliseconds(the?.journalSeconds) + " ms",
                met: the.map { $0.journalSeconds <= 0.030 })
        },
        ratio("cold within 1.5× of the sqlite3 process", 1.5) { size in
            size.coldThe.flatMap { cold in cold.sqliteSeconds.map { cold.journalSeconds / $0 } }
        },
        ratio("search store ≤ 1.5× the FTS5 index", 1.5) { size in
            size.fts5IndexBytes.map { Double(size.searchStoreBytes) / Double($0) }
        },
        fasterThanBestFTS5(.prefix, by: 3, "median", median),
        fasterThanBestFTS5(.prefix, by: 3, "p95", p95),
        ratio("cold journal search ≤ 1.5× sqlite3 on FTS5's best setup (median over queries)", 1.5) { size in
            let ratios = size.coldRatiosVersusBestFTS5.map(\.ratio)
            return ratios.isEmpty ? nil : LatencySummary(ratios).median
        },
        ratio("cold journal search ≤ 3× sqlite3 on FTS5's best setup (every query)", 3) { size in
            size.coldRatiosVersusBestFTS5.map(\.ratio).max()
        },
        ratio("import ≥ 2× faster than FTS5's best-setup build", 2, atLeast: true) { size in
            size.fts5Best.map { $0.buildSeconds / size.importSeconds }
        },
        ratio("search store ≤ 1× FTS5's best-setup index", 1) { size in
            size.fts5Best?.indexBytes.map { Double(size.searchStoreBytes) / Double($0) }
        },
        ratio("a search through journal serve ≤ 1.2× the same search in process (median)", 1.2) { $0.served?.ratio },
        BenchmarkTarget("journal serve answers as the library does") { size in
            size.served.map { served in
                Outcome(
                    measured: served.disagreeing.isEmpty
                        ? "every query" : "not \(served.disagreeing.joined(separator: ", "))",
                    met: served.disagreeing.isEmpty)
            }
        },
        typing(.prefix, "words", "median", median),
        typing(.prefix, "words", "p95", p95),
        typing(.prefix, "phrases", "p95", p95),
        typing(.prefix, "phrases", "max", \.max, within: 0.050),
        encrypted("encrypted import ≤ 1.5× the plain one", atMost: 1.5) {
            $0.encryptedImportSeconds / $0.plainImportSeconds
        },
        encrypted("encrypted journal ≤ 1.1× the plain one on disk", atMost: 1.1) {
            Double($0.encryptedBytes) / Double(max($0.plainBytes, 1))
        },
        encrypted("encrypted warm search ≤ 1.3× plain (median)", atMost: 1.3) {
            $0.encryptedWarm.median / max($0.plainWarm.median, 1e-9)
        },
        encrypted("encrypted warm search ≤ 1.3× plain (p95)", atMost: 1.3) {
            $0.encryptedWarm.p95 / max($0.plainWarm.p95, 1e-9)
        },
        encrypted("encrypted cold search, KDF excluded, ≤ 1.5× plain", atMost: 1.5) {
            $0.encryptedCold / max($0.plainCold, 1e-9)
        },
        ratio("\(SearchStrategies.standard.id) limited to a year no slower than unlimited (median)", 1) { size in
            size.filtered.first { $0.strategy == SearchStrategies.standard.id }?.ratio
        },
        BenchmarkTarget("\(StrategyID.containsN) limited to a month reads only it: time ≤ 3× its share") { size in
            let month = size.filtered.first { $0.strategy == .containsN }
            return Outcome(
                measured: month.map { String(format: "%.4f vs share %.4f", $0.ratio, $0.share) } ?? "–",
                met: month.map { $0.ratio <= 3 * $0.share })
        },
    ]

    /// The targets on whole processes that open no journal, checked once a run: a target's
    /// label and its outcome (nil: not measured).
    package static let startup: [(label: String, check: @Sendable (StartupCost) -> Outcome?)] = [
        ("journal --version ≤ 2× sqlite3 :memory: 'select 1'", { startupRatio($0, "journal --version", 2) }),
        ("journal --help ≤ 2× sqlite3 :memory: 'select 1'", { startupRatio($0, "journal --help", 2) }),
        (
            "the executable ≤ 40 MB",
            { startup in
                startup.image.map { image in
                    Outcome(
                        measured:
                            "\(Formatting.bytes(image.fileBytes)) (\(Formatting.bytes(image.loadedBytes)) loaded)",
                        met: image.fileBytes <= 40_000_000)
                }
            }
        ),
    ]

    private static func startupRatio(_ startup: StartupCost, _ command: String, _ limit: Double) -> Outcome? {
        startup.ratio(of: command).map { Outcome(measured: format($0), met: $0 <= limit) }
    }

    /// From a key press in the full-screen search with `id`, typing `kind` ("words" or
    /// "phrases"), to the screen redrawn with the answer's entries, within `limit` (a frame:
    /// 16 ms).
    private static func typing(
        _ id: StrategyID, _ kind: String, _ name: String, _ percentile: @escaping @Sendable (LatencySummary) -> Double,
        within limit: Double = 0.016
    ) -> BenchmarkTarget {
        let milliseconds = Int(limit * 1000)
        return BenchmarkTarget("\(id): \(kind) typed, key press → redrawn screen ≤ \(milliseconds) ms (\(name))") {
            size in
            let typed = size.typing.first { $0.strategy == id && $0.queries == kind }?.latency
            return Outcome(
                measured: ReportNumbers.milliseconds(typed.map(percentile)) + " ms",
                met: typed.map { percentile($0) <= limit })
        }
    }
}
