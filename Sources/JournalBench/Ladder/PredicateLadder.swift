import Foundation
import GRDB
import JournalKit
import JournalText

/// The predicate ladder of Apple's WWDC 2013 Core Data talk, measured: full scans of the
/// whole journal with `BEGINSWITH`, `ENDSWITH`, `==`, `CONTAINS` and `MATCHES`, each plain,
/// `[c]`, `[d]`, `[cd]` (folding every row at query time) and `[n]` (on the stored canonical
/// text), next to a numeric predicate; and a date condition evaluated before a text condition
/// versus after it.
public struct PredicateLadder: Sendable {
    /// A comparison of the talk, spelled as Core Data spells it.
    public enum Predicate: String, CaseIterable, Sendable {
        case beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH"
        case equals = "=="
        case contains = "CONTAINS"
        case matches = "MATCHES"
    }

    /// What the comparison reads: the text as written, folded per row (`[c]`, `[d]`, `[cd]`),
    /// or the canonical text stored at write time (`[n]`).
    public enum Modifier: String, CaseIterable, Sendable {
        case plain = ""
        case c = "[c]"
        case d = "[d]"
        case cd = "[cd]"
        case n = "[n]"

        var fold: Fold? {
            switch self {
            case .plain: nil
            case .c: .c
            case .d: .d
            case .cd, .n: .cd
            }
        }

        /// The SQL for the text the predicate reads: as written, folded per row, or stored canonical.
        var textExpression: String {
            switch self {
            case .plain: "CAST(text AS BLOB)"
            case .c, .d, .cd: "journal_fold(CAST(text AS BLOB), '\(fold!.rawValue)')"
            case .n: "CAST(canonical AS BLOB)"
            }
        }
    }

    /// The text every predicate compares with.
    public var query: String
    /// Timed scans per predicate.
    public var runs = 3

    /// A ladder comparing every row with `query`.
    public init(query: String) { self.query = query }

    /// Measures; `progress` hears one line per step.
    public func run(
        on journal: Journal, progress: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(JournalError) -> LadderReport {
        let main = journal.main
        return try StoreDatabase.guarded(main.url) {
            try main.pool.read { db in
                let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0
                let medianDate =
                    try Int64.fetchOne(
                        db, sql: "SELECT date FROM entry ORDER BY date LIMIT 1 OFFSET ?", arguments: [entries / 2]) ?? 0
                progress("timing the numeric baseline…")
                // `+date`: evaluated on every row, as the text predicates are, not answered from the date index.
                let numeric = try measure(db, "+date >= ?", [medianDate])
                var cells: [LadderReport.Cell] = []
                for predicate in Predicate.allCases {
                    for modifier in Modifier.allCases {
                        progress("timing \(predicate.rawValue)\(modifier.rawValue)…")
                        cells.append(try cell(db, predicate, modifier))
                    }
                }
                progress("timing the date condition before and after the text condition…")
                let needle = Data(Fold.canonical(query).utf8)
                let text = "instr(\(Modifier.cd.textExpression), ?) > 0"
                let dateFirst = try measure(db, "CASE WHEN date >= ? THEN \(text) ELSE 0 END", [medianDate, needle])
                let dateAfter = try measure(db, "CASE WHEN \(text) THEN date >= ? ELSE 0 END", [needle, medianDate])
                return LadderReport(
                    date: .now, query: query, entries: entries, runs: runs, numeric: numeric, cells: cells,
                    dateFirst: dateFirst, dateAfter: dateAfter)
            }
        }
    }

    private func cell(_ db: Database, _ predicate: Predicate, _ modifier: Modifier) throws -> LadderReport.Cell {
        let needle = modifier.fold?.apply(to: query) ?? query
        let bytes = Data(needle.utf8)
        let text = modifier.textExpression
        switch predicate {
        case .beginsWith:
            return .init(
                predicate: predicate, modifier: modifier,
                timing: try measure(db, "substr(\(text), 1, ?) = ?", [bytes.count, bytes]))
        case .endsWith:
            return .init(
                predicate: predicate, modifier: modifier,
                timing: try measure(db, "substr(\(text), -?) = ?", [bytes.count, bytes]))
        case .equals:
            return .init(predicate: predicate, modifier: modifier, timing: try measure(db, "\(text) = ?", [bytes]))
        case .contains:
            return .init(
                predicate: predicate, modifier: modifier, timing: try measure(db, "instr(\(text), ?) > 0", [bytes]))
        case .matches:
            let matcher = try RegexMatcher(pattern: needle, options: .literal)
            let function = DatabaseFunction("journal_ladder_matches", argumentCount: 1, pure: true) { values in
                guard case .blob(let data) = values[0].storage else { return false }
                return data.withUnsafeBytes { matcher.matches(utf8: $0.bindMemory(to: UInt8.self)) }
            }
            db.add(function: function)
            defer { db.remove(function: function) }
            return .init(
                predicate: predicate, modifier: modifier, timing: try measure(db, "journal_ladder_matches(\(text))", [])
            )
        }
    }

    /// Times `SELECT count(*) FROM entry WHERE condition` over the whole journal.
    private func measure(
        _ db: Database, _ condition: String, _ arguments: StatementArguments
    ) throws -> LadderReport.Timing {
        let statement = try db.makeStatement(sql: "SELECT count(*) FROM entry WHERE \(condition)")
        var matched = 0
        var seconds: [Double] = []
        for _ in 0..<max(1, runs) {
            let start = ContinuousClock.now
            matched = try Int.fetchOne(statement, arguments: arguments) ?? 0
            seconds.append(secondsSince(start))
        }
        return LadderReport.Timing(latency: LatencySummary(seconds), matched: matched)
    }
}

/// What the predicate ladder measured, and what it says about the talk's claims.
public struct LadderReport: Sendable {
    /// How long one predicate took, and how many entries it was true for.
    public struct Timing: Sendable {
        /// Of the full scans (one per run).
        public let latency: LatencySummary
        /// Entries the predicate was true for.
        public let matched: Int
    }

    /// One predicate with one modifier, and its timing.
    public struct Cell: Sendable {
        /// The comparison.
        public let predicate: PredicateLadder.Predicate
        /// What it read.
        public let modifier: PredicateLadder.Modifier
        /// How it did.
        public let timing: Timing
        /// As Core Data spells it: `CONTAINS[cd]`.
        public var name: String { predicate.rawValue + modifier.rawValue }
    }

    /// One claim of the talk and what the measurements say of it.
    public struct Verdict: Sendable {
        /// The claim, in words.
        public let claim: String
        /// Whether the measurements bear it out.
        public let holds: Bool
        /// The ratios behind the verdict.
        public let detail: String
    }

    /// When it was measured.
    public let date: JournalDate
    /// The text every predicate compared with.
    public let query: String
    /// Rows scanned by each predicate.
    public let entries: Int
    /// Timed scans per predicate.
    public let runs: Int
    /// `date >= median date`: a numeric predicate over the same rows.
    public let numeric: Timing
    /// Every predicate with every modifier.
    public let cells: [Cell]
    /// `[cd] CONTAINS` with the date condition evaluated first, and last.
    public let dateFirst: Timing
    /// The same with the date condition evaluated last.
    public let dateAfter: Timing

    /// The cell of `predicate` with `modifier`.
    public func cell(_ predicate: PredicateLadder.Predicate, _ modifier: PredicateLadder.Modifier) -> Cell {
        cells.first { $0.predicate == predicate && $0.modifier == modifier }!
    }

    /// The talk's claims, each with what the measurements say of it.
    public var verdicts: [Verdict] {
        func median(_ predicate: PredicateLadder.Predicate, _ modifier: PredicateLadder.Modifier = .plain) -> Double {
            cell(predicate, modifier).timing.latency.median
        }
        func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f×", b > 0 ? a / b : 0) }
        let text = PredicateLadder.Predicate.allCases.map { median($0) }
        let plainOrder = PredicateLadder.Predicate.allCases.sorted { median($0) < median($1) }.map(\.rawValue).joined(
            separator: " < ")
        return [
            Verdict(
                claim: "text predicates cost more than numeric ones",
                holds: text.allSatisfy { $0 > numeric.latency.median },
                detail:
                    "the cheapest text predicate is \(ratio(text.min() ?? 0, numeric.latency.median)) the numeric one"),
            Verdict(
                claim: "BEGINSWITH and ENDSWITH cost less than ==",
                holds: median(.beginsWith) < median(.equals) && median(.endsWith) < median(.equals),
                detail:
                    "BEGINSWITH is \(ratio(median(.beginsWith), median(.equals))), ENDSWITH \(ratio(median(.endsWith), median(.equals))) of =="
            ),
            Verdict(
                claim: "== costs less than CONTAINS",
                holds: median(.equals) < median(.contains),
                detail: "CONTAINS is \(ratio(median(.contains), median(.equals))) of =="),
            Verdict(
                claim: "CONTAINS costs less than MATCHES",
                holds: median(.contains) < median(.matches),
                detail:
                    "MATCHES is \(ratio(median(.matches), median(.contains))) of CONTAINS; measured order: \(plainOrder)"
            ),
            Verdict(
                claim: "[cd] costs more than plain",
                holds: PredicateLadder.Predicate.allCases.allSatisfy { median($0, .cd) > median($0) },
                detail: "CONTAINS[cd] is \(ratio(median(.contains, .cd), median(.contains))) of CONTAINS"),
            Verdict(
                claim: "[n] is as cheap as plain (within 1.25×)",
                holds: PredicateLadder.Predicate.allCases.allSatisfy { median($0, .n) <= 1.25 * median($0) },
                detail:
                    "CONTAINS[n] is \(ratio(median(.contains, .n), median(.contains))) of CONTAINS and \(ratio(median(.contains, .n), median(.contains, .cd))) of CONTAINS[cd]"
            ),
            Verdict(
                claim: "a date condition before the text condition is cheaper than after it",
                holds: dateFirst.latency.median < dateAfter.latency.median,
                detail:
                    "date first is \(ratio(dateFirst.latency.median, dateAfter.latency.median)) of date last (CONTAINS[cd], half the entries in the date range)"
            ),
        ]
    }
}
