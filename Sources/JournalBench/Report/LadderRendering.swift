import JournalKit
import TextReport

/// `journal compare --ladder`'s report in every format.
package struct LadderRendering: SectionedReport {
    package let report: LadderReport
    package let context: ReportContext

    package init(report: LadderReport, context: ReportContext) {
        self.report = report
        self.context = context
    }

    package let title = "journal compare --ladder"

    package var sections: [ReportSection] {
        [
            ReportSection("Median full-scan time in milliseconds (entries matched)", [.table(grid), .table(others)]),
            ReportSection("The talk's claims", [.table(verdicts)], isVerdict: true),
        ]
    }

    package var facts: [String] {
        [
            "predicates compared with \"\(report.query)\" over every one of \(Formatting.count(report.entries, "entry", "entries")) (SELECT count(*) FROM entry WHERE …), median of \(report.runs) runs",
            "[c], [d], [cd] fold every row at query time; [n] compares the canonical text stored at write time",
            "measured: \(report.date.iso8601) on \(context.machine)",
            "command: \(context.command)",
        ]
    }

    private func cell(_ timing: LadderReport.Timing) -> String {
        "\(ReportNumbers.milliseconds(timing.latency.median)) (\(Formatting.grouped(timing.matched)))"
    }

    private var grid: TextTable {
        TextTable(
            headers: ["predicate"] + PredicateLadder.Modifier.allCases.map { $0 == .plain ? "plain" : $0.rawValue },
            rows: PredicateLadder.Predicate.allCases.map { predicate in
                [predicate.rawValue] + PredicateLadder.Modifier.allCases.map { cell(report.cell(predicate, $0).timing) }
            },
            numericColumns: Set(1...PredicateLadder.Modifier.allCases.count))
    }

    private var others: TextTable {
        TextTable(
            headers: ["other scans", "median ms (matched)"],
            rows: [
                ["date >= median date (numeric)", cell(report.numeric)],
                ["date first, then CONTAINS[cd]", cell(report.dateFirst)],
                ["CONTAINS[cd] first, then date", cell(report.dateAfter)],
            ],
            numericColumns: [1])
    }

    private var verdicts: TextTable {
        TextTable(
            headers: ["claim", "", "measured"],
            rows: report.verdicts.map { [$0.claim, $0.holds ? "holds" : "DOES NOT HOLD", $0.detail] })
    }

    package var json: JSONValue {
        func timing(_ timing: LadderReport.Timing) -> JSONValue {
            .object([
                "median_ms": ReportNumbers.milliseconds(json: timing.latency.median),
                "p95_ms": ReportNumbers.milliseconds(json: timing.latency.p95),
                "max_ms": ReportNumbers.milliseconds(json: timing.latency.max),
                "matched": .integer(timing.matched),
            ])
        }
        return .object([
            "date": .string(report.date.iso8601),
            "command": .string(context.command),
            "machine": .string(context.machine),
            "query": .string(report.query),
            "entries": .integer(report.entries),
            "runs": .integer(report.runs),
            "numeric": timing(report.numeric),
            "predicates": .array(
                report.cells.map { cell in
                    .object([
                        "predicate": .string(cell.predicate.rawValue), "modifier": .string(cell.modifier.rawValue),
                        "name": .string(cell.name), "timing": timing(cell.timing),
                    ])
                }),
            "date_first": timing(report.dateFirst),
            "date_after": timing(report.dateAfter),
            "verdicts": .array(
                report.verdicts.map {
                    .object(["claim": .string($0.claim), "holds": .bool($0.holds), "detail": .string($0.detail)])
                }),
        ])
    }
}
