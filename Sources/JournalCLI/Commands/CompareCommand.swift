import ArgumentParser
import Foundation
import JournalBench
import JournalKit
import TextReport

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Measure every search strategy on this journal, side by side, and check that they agree.",
        discussion: """
            Runs a query set (--queries FILE, one a line, or one chosen from the journal's own word \
            frequencies) with each strategy, warm, in this process: median, p95 and max latency for \
            the exact total and newest 20; entries found; whether each strategy returns exactly \
            the entries of its family's reference (token, contains[cd]); and the size and build \
            time of the structure it needs (rebuilt to time it, unless --no-build-times). \
            --ladder instead times the predicate ladder of Apple's WWDC 2013 Core Data talk. \
            The report goes to standard output (or -o FILE), progress to standard error.
            """)

    @ParentCommand var journal: JournalCommand

    @Option(help: ArgumentHelp("Strategies to measure, comma-separated (default: all).", valueName: "NAMES"))
    var strategies: String?

    @Option(help: ArgumentHelp("A file of queries, one a line (default: chosen from the journal).", valueName: "FILE"))
    var queries: String?

    @Option(help: "Timed runs per query and strategy.")
    var runs = 5

    @Flag(help: "Skip rebuilding each strategy's structure to time its build.")
    var noBuildTimes = false

    @Flag(help: "Time the predicate ladder (BEGINSWITH … MATCHES, plain to [n]) instead.")
    var ladder = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --ladder: the text the predicates compare with (default: the journal's most common word).",
            valueName: "TEXT"))
    var query: String?

    @Option(help: "table, markdown, json or html.")
    var format: ReportFormat = .table

    @OptionGroup var output: OutputFileOptions

    func validate() throws {
        guard (1...1_000).contains(runs) else { throw ValidationError("--runs must be from 1 to 1,000") }
        if query != nil && !ladder {
            throw ValidationError("--query goes with --ladder (use --queries FILE for a query set)")
        }
        if ladder && (strategies != nil || queries != nil) {
            throw ValidationError("--ladder measures predicates, not strategies: drop --strategies and --queries")
        }
        try output.destination.checkWritable(option: "--output")
    }

    func run() throws {
        let chosen = try StrategyList.parse(strategies)
        let fileQueries = try queries.map(ComparisonQuery.load(path:))
        let journal = try self.journal.openJournal(use: .kept)
        let status = StatusLine()
        let context = ReportContext.current
        let rendered: String
        if ladder {
            let text =
                try query ?? journal.builtInQueries().first?.text
                ?? { throw JournalError(.usage, "the journal has no words to compare with: give --query TEXT") }()
            var measurement = PredicateLadder(query: text)
            measurement.runs = runs
            let report = try measurement.run(on: journal) { status.show($0) }
            status.finish()
            rendered = LadderRendering(report: report, context: context).render(
                format, style: output.destination.terminal.style)
        } else {
            status.show("choosing queries from the journal's word frequencies…")
            let queries = try fileQueries ?? (journal.builtInQueries() + journal.syntaxQueries())
            guard !queries.isEmpty else {
                throw JournalError(.usage, "the journal has too few words to choose queries from: give --queries FILE")
            }
            var comparison = StrategyComparison(strategies: chosen, queries: queries)
            comparison.runs = runs
            comparison.measureBuilds = !noBuildTimes
            let report = try comparison.run(on: journal) { status.show($0) }
            status.finish()
            rendered = ComparisonRendering(report: report, context: context).render(
                format, style: output.destination.terminal.style)
        }
        try output.destination.write(rendered)
    }
}
