import ArgumentParser
import Foundation
import JournalBench
import JournalKit
import TextReport

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark journal against SQLite FTS5 on synthetic journals of growing size.",
        discussion: """
            For each size (default 10k, 100k and 1m entries; --ten-million adds 10m), generates a \
            synthetic journal (as `journal generate`, kept in --work for the next run unless \
            --discard-inputs), then:
              import  `journal import` as a separate process: entries/s, MB/s, peak
                      memory, next to FTS5 indexing the same text
              warm    every strategy in this process over the query set (exact
                      total and newest 20): median, p95, max, ratio to fts5
              best    FTS5 as its best users set it up (rowids in date order,
                      optimized), built and timed on the same queries
              cold    whole `journal search QUERY --limit 20 --json` processes next to
                      whole `sqlite3` processes answering the same FTS5 query
              sizes   bytes per entry of each store, the FTS5 index, the prefix table
              on this day  `list --on-this-day` on 13 days (the 15th of each month,
                      29 February) through the journal, next to the newest 20 listed
                      and to a scan of every entry's local date; one as a process
              during an import  a copy of the journal importing a quarter more
                      entries (at most 50,000) while `journal search` processes
                      run: their latency against idle, and any answer that was
                      part of the import; FTS5's best setup (WAL) inserting the
                      same entries in one transaction under `sqlite3` processes
              encrypted  with --encrypted, the same input imported into an encrypted
                      journal too: import, size, warm and cold searches next to the
                      plain journal's, and what the key derivation costs

            --corpus FILE measures a file of real entries (JSON Lines, as `journal import` reads \
            them) instead: one size, its entries, queries chosen from them.

            The query set is chosen from the first size's journal and used for every size. \
            A strategy that spends --budget seconds on one size skips its remaining queries \
            there (the report says how many it ran). Stores are deleted after each size unless \
            --keep-stores. --format html plots how each figure grows with the journal.
            """)

    @Option(
        help: ArgumentHelp(
            "Journal sizes, comma-separated, with k and m for thousands and millions (default: 10k,100k,1m).",
            valueName: "SIZES"))
    var sizes: String?

    @Option(
        help: ArgumentHelp(
            "Measure the entries of FILE (JSON Lines) instead of generated journals.", valueName: "FILE"))
    var corpus: String?

    @Flag(help: "Add a 10m-entry journal (11 GB of input, up to 70 GB of disk with the stores, and well over an hour).")
    var tenMillion = false

    @Option(help: ArgumentHelp("Strategies to time warm, comma-separated (default: all).", valueName: "NAMES"))
    var strategies: String?

    @Option(help: "Timed warm runs per query and strategy.")
    var runs = 5

    @Option(help: "Whole processes per query, for the cold figures.")
    var coldRuns = 5

    @Option(
        help: ArgumentHelp(
            "Seconds a strategy may spend on one size before skipping its remaining queries.", valueName: "SECONDS"))
    var budget: Double = 60

    @Option(help: "The generator's seed.")
    var seed: UInt64 = 2013

    @Option(
        help: ArgumentHelp(
            "Where generated journals and stores go (default: journal-bench in the temporary folder).", valueName: "DIR"
        ))
    var work: String?

    @Flag(help: "Keep each size's stores in the work folder.")
    var keepStores = false

    @Flag(help: "Delete each generated journal once imported, to save disk (the next run generates it again).")
    var discardInputs = false

    @Flag(help: "Also measure each size as an encrypted journal, next to the plain one.")
    var encrypted = false

    @Option(help: "table, markdown, json or html.")
    var format: ReportFormat = .table

    @OptionGroup var output: OutputFileOptions

    @Option(
        help: ArgumentHelp("Also write the report as an HTML page, with its growth charts, here.", valueName: "FILE"))
    var html: String?

    /// The sizes to measure, smallest first: the corpus's one, its number of lines with an
    /// entry, or those asked for.
    func entryCounts() throws -> [Int] {
        if let corpus {
            guard sizes == nil, !tenMillion else {
                throw ValidationError("--corpus measures the file's own entries: leave out --sizes and --ten-million")
            }
            guard corpus != "-" else {
                throw ValidationError("--corpus needs a file: it is read once to count and once to import")
            }
            // Its lines as the import reads them (blank ones skipped), streamed, however large the file.
            var lines = 0
            do {
                let reader = try JSONLinesReader(path: corpus)
                while let batch = try reader.nextBatch(targetBytes: 1 << 20, maxLines: 10_000) { lines += batch.count }
            } catch {
                throw ValidationError("--corpus: \(error.message)")
            }
            guard lines > 0 else { throw ValidationError("--corpus: \(corpus) holds no entry") }
            return [lines]
        }
        var counts = try (sizes ?? "10k,100k,1m").split(separator: ",").map { item -> Int in
            let text = item.trimmingCharacters(in: .whitespaces).lowercased()
            let multiplier = text.hasSuffix("m") ? 1_000_000 : text.hasSuffix("k") ? 1_000 : 1
            guard let number = Int(multiplier == 1 ? text : String(text.dropLast())), number > 0,
                number * multiplier <= 100_000_000
            else {
                throw ValidationError("--sizes: \"\(item)\" is not a size from 1 to 100m (like 10k or 1m)")
            }
            return number * multiplier
        }
        if tenMillion { counts.append(10_000_000) }
        guard !counts.isEmpty else { throw ValidationError("--sizes names no size") }
        return Array(Set(counts)).sorted()
    }

    func validate() throws {
        _ = try entryCounts()
        guard (1...1_000).contains(runs) else { throw ValidationError("--runs must be from 1 to 1,000") }
        guard (1...1_000).contains(coldRuns) else { throw ValidationError("--cold-runs must be from 1 to 1,000") }
        guard budget > 0 else { throw ValidationError("--budget must be more than 0 seconds") }
    }

    func run() throws {
        let chosen = try StrategyList.parse(strategies)
        let folder = URL(
            fileURLWithPath: work ?? FileManager.default.temporaryDirectory.appendingPathComponent("journal-bench").path
        )
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw JournalError(.invalidInput, "cannot create \(folder.path): \(error.localizedDescription)")
        }
        // Checked once the work folder, where a report may go, is made.
        try output.destination.checkWritable(option: "--output")
        try html.map(OutputDestination.file)?.checkWritable(option: "--html")
        let status = StatusLine()
        let run = BenchmarkRun(
            folder: folder, seed: seed, strategies: chosen, runs: runs, coldRuns: coldRuns,
            budgetSeconds: budget, keepStores: keepStores, discardInputs: discardInputs, encrypted: encrypted,
            corpus: corpus.map { URL(fileURLWithPath: $0) }, progress: status.show)
        var report = BenchmarkReport(
            date: .now, seed: seed, runs: runs, coldRuns: coldRuns, budgetSeconds: budget, queries: [], sizes: [])
        report.corpus = corpus
        report.startup = try StartupCost.measure(
            executable: ChildProcess.currentExecutable, runs: max(coldRuns * 4, 20), progress: status.show)
        for entries in try entryCounts() {
            let size = try run.measure(entries: entries, queries: report.queries.isEmpty ? nil : report.queries)
            if report.queries.isEmpty { report.queries = size.warm.queries }
            report.sizes.append(size)
        }
        status.finish()
        let rendering = BenchmarkRendering(report: report, context: .current)
        if let html { try OutputDestination.file(html).write(rendering.render(.html, style: .plain)) }
        try output.destination.write(rendering.render(format, style: output.destination.terminal.style))
        // The progress lines end here: say where the report went, so that a log shows the run ended.
        let files = [html, output.destination.path].compactMap { $0 }
        if !files.isEmpty { Terminal.standardError.write("wrote " + files.joined(separator: " and ") + "\n") }
    }
}
