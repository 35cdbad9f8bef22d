import Foundation
import JournalKit
import TextReport

/// `journal compare`'s report in every format.
package struct ComparisonRendering: SectionedReport {
    package let report: ComparisonReport
    package let context: ReportContext

    package init(report: ComparisonReport, context: ReportContext) {
        self.report = report
        self.context = context
    }

    // MARK: Tables

    private var peer: ComparisonReport.StrategyResult? { report.strategy(.fts5) }

    package var strategiesTable: TextTable {
        TextTable(
            headers: [
                "strategy", "family", "median ms", "p95 ms", "max ms", "vs fts5", "found", "agreement", "size", "build",
            ],
            rows: report.strategies.map { result in
                [
                    result.name, result.family.rawValue,
                    ReportNumbers.milliseconds(result.latency.median), ReportNumbers.milliseconds(result.latency.p95),
                    ReportNumbers.milliseconds(result.latency.max),
                    peer.map {
                        result.id == .fts5
                            ? "peer" : ReportNumbers.versus(result.latency.median, peer: $0.latency.median)
                    }
                        ?? "–",
                    Formatting.grouped(result.found), agreement(result),
                    result.structure.bytes.map(Formatting.bytes) ?? "–",
                    ReportNumbers.seconds(result.structure.buildSeconds),
                ]
            },
            numericColumns: [2, 3, 4, 6, 8, 9])
    }

    private func agreement(_ result: ComparisonReport.StrategyResult) -> String {
        guard let reference = result.reference else { return "reference" }
        return "\(result.agreed)/\(result.compared) with \(reference)"
    }

    package var structuresTable: TextTable {
        TextTable(
            headers: ["strategy", "structure", "note"],
            rows: report.strategies.map { [$0.name, $0.structure.description, $0.structure.note ?? ""] })
    }

    package var disagreementsTable: TextTable {
        TextTable(
            headers: ["strategy", "reference", "query", "reference found", "found", "missing", "extra", "difference"],
            rows: report.strategies.flatMap { result in
                result.disagreements.map {
                    [
                        result.name, result.reference?.name ?? "", $0.query, Formatting.grouped($0.expected),
                        Formatting.grouped($0.found), Formatting.grouped($0.missing), Formatting.grouped($0.extra),
                        report.mustAgree(result) ? "FAULT: meant to agree" : "by design",
                    ]
                }
            },
            numericColumns: [3, 4, 5, 6])
    }

    /// One line per group of strategies meant to agree.
    private var equivalenceLines: [String] {
        report.equivalenceChecks.map { check in
            "\(check.strategies.joined(separator: " = ")): \(check.agreed ? "agree on every query" : "DISAGREE (see below)")"
        }
    }

    package var queriesTable: TextTable {
        TextTable(
            headers: ["query", "kind"] + report.strategies.map(\.name),
            rows: report.queries.enumerated().map { index, query in
                [query.text, query.kind]
                    + report.strategies.map { result in
                        result.queries[index].total.map(Formatting.grouped)
                            ?? (result.queries[index].skipped ? "skipped" : "refused")
                    }
            },
            numericColumns: Set(2..<(2 + report.strategies.count)))
    }

    package var agreementTable: TextTable {
        TextTable(
            headers: [""] + report.strategies.map(\.name),
            rows: report.strategies.enumerated().map { row, result in
                [result.name]
                    + report.agreement[row].map { share in share.map { String(format: "%.0f%%", $0 * 100) } ?? "–" }
            },
            numericColumns: Set(1...max(1, report.strategies.count)))
    }

    package var facts: [String] {
        equivalenceLines.isEmpty
            ? baseFacts : baseFacts + ["meant to agree: " + equivalenceLines.joined(separator: "; ")]
    }

    private var baseFacts: [String] {
        [
            "journal: \(Formatting.count(report.journal.entries, "entry", "entries")), \(Formatting.grouped(report.journal.tokens)) tokens, main store \(Formatting.bytes(report.journal.mainStoreBytes)), search store \(Formatting.bytes(report.journal.searchStoreBytes))",
            "queries: \(report.queries.count), each run once untimed (collecting its entries) then \(report.runs) times timed (exact total + newest \(report.pageSize)), warm, in one process",
            "query syntax (phrases, OR, -, groups, tags, fields): read by "
                + report.strategies.filter { $0.family == .wordPrefix }.map(\.name).joined(separator: ", ")
                + "; the others take each query as written",
            "measured: \(report.date.iso8601) on \(context.machine)",
            "command: \(context.command)",
        ]
    }

    // MARK: Formats

    package let title = "journal compare"

    package var sections: [ReportSection] {
        [
            ReportSection("Strategies", [.figure(chart), .table(strategiesTable)]),
            ReportSection(
                "Where strategies differ from their family's reference",
                [
                    disagreementsTable.rows.isEmpty
                        ? .paragraph("Nowhere: every strategy agrees with its family's reference on every query.")
                        : .table(disagreementsTable)
                ]),
            ReportSection("Structures", [.table(structuresTable)]),
            ReportSection(
                "Agreement (share of queries with identical entries)",
                [ReportSection.Part(content: .table(agreementTable), formats: [.markdown]), .figure(agreementHTML)]),
            ReportSection("Queries (entries found)", [.detail(queriesTable)]),
        ]
    }

    package var json: JSONValue {
        .object([
            "date": .string(report.date.iso8601),
            "command": .string(context.command),
            "machine": .string(context.machine),
            "journal": .object([
                "entries": .integer(report.journal.entries), "tokens": .integer(report.journal.tokens),
                "main_store_bytes": .integer(report.journal.mainStoreBytes),
                "search_store_bytes": .integer(report.journal.searchStoreBytes),
            ]),
            "runs": .integer(report.runs),
            "page_size": .integer(report.pageSize),
            "queries": .array(report.queries.map { .object(["text": .string($0.text), "kind": .string($0.kind)]) }),
            "strategies": .array(report.strategies.map(strategyJSON)),
            "meant_to_agree": .array(
                report.equivalenceChecks.map {
                    .object(["strategies": .array($0.strategies.map(JSONValue.string)), "agreed": .bool($0.agreed)])
                }),
            "agreement": .object([
                "strategies": .array(report.strategies.map { .string($0.name) }),
                "matrix": .array(report.agreement.map { .array($0.map { $0.map(JSONValue.number) ?? .null }) }),
            ]),
        ])
    }

    private func strategyJSON(_ result: ComparisonReport.StrategyResult) -> JSONValue {
        .object([
            "name": .string(result.name),
            "family": .string(result.family.rawValue),
            "equivalence": .string(result.equivalence),
            "summary": .string(result.summary),
            "median_ms": ReportNumbers.milliseconds(json: result.latency.median),
            "p95_ms": ReportNumbers.milliseconds(json: result.latency.p95),
            "max_ms": ReportNumbers.milliseconds(json: result.latency.max),
            "samples": .integer(result.latency.samples),
            "found": .integer(result.found),
            "reference": result.reference.map { .string($0.name) } ?? .null,
            "agreed": .integer(result.agreed),
            "compared": .integer(result.compared),
            "differences_are_faults": .bool(report.mustAgree(result)),
            "disagreements": .array(
                result.disagreements.map {
                    .object([
                        "query": .string($0.query), "expected": .integer($0.expected), "found": .integer($0.found),
                        "missing": .integer($0.missing), "extra": .integer($0.extra),
                    ])
                }),
            "structure": .object([
                "description": .string(result.structure.description),
                "bytes": result.structure.bytes.map(JSONValue.integer) ?? .null,
                "build_seconds": result.structure.buildSeconds.map(JSONValue.number) ?? .null,
                "note": result.structure.note.map(JSONValue.string) ?? .null,
            ]),
            "queries": .array(
                result.queries.map {
                    .object([
                        "query": .string($0.query), "total": $0.total.map(JSONValue.integer) ?? .null,
                        "median_ms": ReportNumbers.milliseconds(json: $0.medianSeconds),
                        "refusal": $0.refusal.map(JSONValue.string) ?? .null,
                    ])
                }),
        ])
    }

    private var chart: String {
        LogBarChart(
            bars: report.strategies.map {
                ($0.name, $0.latency.median, $0.latency.p95, $0.family == .wordPrefix ? "#2b6cb0" : "#c05621")
            },
            legend: [("#c05621", "substring family"), ("#2b6cb0", "word-prefix family")]
        ).svg
    }

    private var agreementHTML: String {
        let names = report.strategies.map(\.name)
        let head =
            "<tr><th></th>" + names.map { "<th class=\"v\"><span>\(HTML.escape($0))</span></th>" }.joined() + "</tr>"
        let rows = names.enumerated().map { row, name in
            "<tr><th>\(HTML.escape(name))</th>"
                + report.agreement[row].map { share -> String in
                    guard let share else { return "<td class=\"m\">–</td>" }
                    let lightness = 96 - Int(share * 40)
                    return
                        "<td class=\"m\" style=\"background:hsl(\(Int(share * 120)),55%,\(lightness)%)\">\(Int((share * 100).rounded()))</td>"
                }.joined() + "</tr>"
        }.joined(separator: "\n")
        return "<table class=\"matrix\">\n\(head)\n\(rows)\n</table>"
    }
}
