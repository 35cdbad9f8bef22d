import JournalBench
import JournalKit

/// `journal compare --ladder`'s report in every format.
struct LadderRendering {
    let report: LadderReport
    let context: ReportContext

    func render(_ format: ReportFormat, terminal: Terminal) -> String {
        switch format {
        case .table:
            return
                ([facts.joined(separator: "\n"), grid.terminal(terminal), others.terminal(terminal)]
                + [verdictLines(yes: terminal.bold("holds"), no: terminal.bold("does not hold")).joined(separator: "\n")])
                .joined(separator: "\n\n")
        case .markdown:
            return
                ([
                    "## journal compare --ladder", facts.map { "- " + $0 }.joined(separator: "\n"),
                    "Median full-scan time in milliseconds (entries matched):", grid.markdown, others.markdown, "### The talk's claims",
                ]
                + [verdictLines(yes: "**holds**", no: "**does not hold**").map { "- " + $0 }.joined(separator: "\n")])
                .joined(separator: "\n\n")
        case .json:
            return json.serialized
        case .html:
            return HTMLPage.render(
                title: "journal compare --ladder",
                sections: [
                    ("", "<ul>" + facts.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"),
                    ("Median full-scan time in milliseconds (entries matched)", grid.html + others.html),
                    (
                        "The talk's claims",
                        "<ul>"
                            + report.verdicts.map { verdict in
                                "<li>\(HTML.escape(verdict.claim)): <strong class=\"\(verdict.holds ? "yes" : "no")\">\(verdict.holds ? "holds" : "does not hold")</strong> — \(HTML.escape(verdict.detail))</li>"
                            }.joined() + "</ul>"
                    ),
                ])
        }
    }

    private var facts: [String] {
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

    private func verdictLines(yes: String, no: String) -> [String] {
        report.verdicts.map { "\($0.claim): \($0.holds ? yes : no) (\($0.detail))" }
    }

    private var json: JSONValue {
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
