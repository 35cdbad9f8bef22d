import ArgumentParser
import JournalKit
import TextReport

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count entries and tokens, and size the stores; count what a query finds by year or month.",
        discussion: """
            With --query or filters, also says how many entries they find; --by year or --by month draws how many \
            fall in each (of those found, or of all): journal stats --query japan --by year.
            """)

    /// The periods `--by` counts in.
    enum Period: String, ExpressibleByArgument, CaseIterable {
        case year, month
        var counting: CountingPeriod { self == .year ? .year : .month }
    }

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var found: FoundEntries
    @Option(help: ArgumentHelp("Count the entries in each year or month, in the local time zone.", valueName: "PERIOD"))
    var by: Period?

    func run() throws {
        let journal = try self.journal.openJournal()
        let stats = try journal.statistics()
        let query = try found.searchQuery()
        let periods = try by.map { try journal.entryCounts(by: $0.counting, query) }
        var matching: Int?
        if let periods, found.isGiven {
            matching = periods.reduce(0) { $0 + $1.entries }
        } else if found.isGiven {
            let one = try PageRequest(limit: 1)
            matching = try journal.search(query, page: one).total
        }
        if output.json {
            guard case .object(let pairs) = JSONOutput.statistics(stats, directory: journal.directory.url.path) else {
                return
            }
            var fields = pairs.map { ($0.key, $0.value) }
            if let matching { fields.append(("found", .integer(matching))) }
            if let periods, let by {
                fields.append(
                    (
                        "by_\(by.rawValue)",
                        .array(
                            periods.map {
                                .fields([
                                    ("period", .string($0.label)), ("start", .string($0.start.iso8601)),
                                    ("entries", .integer($0.entries)),
                                ])
                            })
                    ))
            }
            JSONOutput.print(.fields(fields))
            return
        }
        var rows = [
            ("journal", journal.directory.url.path),
            ("entries", Formatting.grouped(stats.entries)),
        ]
        if let matching { rows.append(("found", "\(Formatting.grouped(matching))  \(found.summary)")) }
        rows += [
            ("tokens", Formatting.grouped(stats.tokens)),
            ("main store", Formatting.bytes(stats.mainStoreBytes) + "  journal.sqlite"),
            ("search store", Formatting.bytes(stats.searchStoreBytes) + "  search.sqlite"),
            (
                "prefix table",
                stats.prefixTableBytes > 0
                    ? Formatting.bytes(stats.prefixTableBytes) + "  search.sqlite-prefix"
                    : "none yet (saved from 1,000 distinct tokens)"
            ),
        ]
        for (label, value) in rows {
            print(Formatting.padded(label, to: 13) + value)
        }
        guard let periods, let by else { return }
        let terminal = Terminal.standardOutput
        print("\n" + terminal.bold("entries by \(by.rawValue)" + (found.isGiven ? " · " + found.summary : "")))
        if periods.isEmpty { print("no entries") }
        for line in BarChart.lines(periods.map { ($0.label, $0.entries) }, width: terminal.width, terminal: terminal) {
            print(line)
        }
    }
}
