import ArgumentParser
import JournalBench
import JournalKit
import TextReport

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count entries and tokens, and size the stores; count what a query finds by year or month.",
        discussion: """
            With --query or filters, also says how many entries they find; --by year or --by month draws how many \
            fall in each (of those found, or of all): journal stats --query japan --by year.

            The search store is sized beside the FTS5 index of the fts5 strategy once that strategy has run \
            (journal search --strategy fts5 WORD builds it); --tables splits both by table and index, reading \
            every page of the stores.
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
    @Flag(help: "Split the search store's size (and the FTS5 index's) by table and index.")
    var tables = false

    /// The stores' sizes in the pages their tables use, as `--tables` reads them.
    private struct TableSizes {
        let search: [StoreTableSize]?
        let searchFreeBytes: Int
        let fts5: [StoreTableSize]?
    }

    func run() throws {
        let journal = try self.journal.openJournal()
        let stats = try journal.statistics()
        let query = try found.searchQuery()
        let periods = try by.map { try journal.entryCounts(by: $0.counting, query) }
        let sizes =
            try tables
            ? TableSizes(
                search: journal.searchStoreTables(), searchFreeBytes: journal.searchStoreFreeBytes(),
                fts5: journal.fts5PeerTables()) : nil
        var matching: Int?
        if let periods, found.isGiven {
            matching = periods.reduce(0) { $0 + $1.entries }
        } else if found.isGiven {
            let one = try PageRequest(limit: 1)
            matching = try journal.search(query, page: one).total
        }
        if output.json {
            printJSON(stats, directory: journal.directory.url.path, sizes: sizes, matching: matching, periods: periods)
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
        if let sizes { printTables(sizes, stats) }
        guard let periods, let by else { return }
        let terminal = Terminal.standardOutput
        print("\n" + terminal.bold("entries by \(by.rawValue)" + (found.isGiven ? " · " + found.summary : "")))
        if periods.isEmpty { print("no entries") }
        for line in BarChart.lines(periods.map { ($0.label, $0.entries) }, width: terminal.width, terminal: terminal) {
            print(line)
        }
    }

    private func printJSON(
        _ stats: JournalStatistics, directory: String, sizes: TableSizes?, matching: Int?, periods: [PeriodCount]?
    ) {
        guard case .object(let pairs) = JSONOutput.statistics(stats, directory: directory) else { return }
        var fields = pairs.map { ($0.key, $0.value) }
        if let sizes {
            fields += [
                ("search_store_table_bytes", sizes.search.map { .integer(Self.total($0)) } ?? .null),
                ("search_store_free_bytes", .integer(sizes.searchFreeBytes)),
                ("fts5_index_bytes", sizes.fts5.map { .integer(Self.total($0)) } ?? .null),
                ("search_store_tables", sizes.search.map(StoreTableSize.json) ?? .null),
                ("fts5_index_tables", sizes.fts5.map(StoreTableSize.json) ?? .null),
            ]
        }
        if let matching { fields.append(("found", .integer(matching))) }
        if let periods, let by {
            let counts = periods.map {
                JSONValue.fields([
                    ("period", .string($0.label)), ("start", .string($0.start.iso8601)),
                    ("entries", .integer($0.entries)),
                ])
            }
            fields.append(("by_\(by.rawValue)", .array(counts)))
        }
        JSONOutput.print(.fields(fields))
    }

    /// The search store's bytes an entry in the pages its tables use, beside the FTS5 index's,
    /// and both split by table.
    private func printTables(_ sizes: TableSizes, _ stats: JournalStatistics) {
        let terminal = Terminal.standardOutput
        guard let search = sizes.search else {
            print("\nthis SQLite can't size tables (it has no dbstat)")
            return
        }
        let searchBytes = Self.total(search)
        print("\n" + terminal.bold("pages in use"))
        print(
            Formatting.padded("search store", to: 13) + Formatting.bytes(searchBytes) + ", "
                + Self.perEntry(searchBytes, stats.indexedEntries))
        print(
            Formatting.padded("", to: 13) + "and " + Formatting.bytes(sizes.searchFreeBytes)
                + " of free pages in its file, which later writes reuse")
        if stats.prefixTableBytes > 0 {
            let withFile = searchBytes + stats.prefixTableBytes
            print(
                Formatting.padded("", to: 13) + "with the prefix table's file beside it (a cache of the tokens): "
                    + Formatting.bytes(withFile) + ", " + Self.perEntry(withFile, stats.indexedEntries))
        }
        if let fts5 = sizes.fts5 {
            let bytes = Self.total(fts5)
            print(
                Formatting.padded("FTS5 index", to: 13) + Formatting.bytes(bytes) + ", "
                    + Self.perEntry(bytes, stats.entries)
                    + String(format: "; the search store is %.2f× it", Double(searchBytes) / Double(max(1, bytes))))
        } else {
            print(
                Formatting.padded("FTS5 index", to: 13)
                    + "not built: journal search --strategy fts5 WORD builds it, to size the search store against")
        }
        for (title, tables, entries) in [
            ("search store by table", sizes.search, stats.indexedEntries),
            ("FTS5 index by table", sizes.fts5, stats.entries),
        ] {
            guard let tables else { continue }
            print("\n" + terminal.bold(title))
            print(Self.tableSizes(tables, entries: entries).text(terminal.style))
        }
    }

    private static func total(_ sizes: [StoreTableSize]) -> Int { sizes.reduce(0) { $0 + $1.bytes } }

    private static func perEntry(_ bytes: Int, _ entries: Int) -> String {
        entries == 0
            ? "no entries" : Formatting.grouped(Int((Double(bytes) / Double(entries)).rounded())) + " B an entry"
    }

    /// Each table's bytes, bytes an entry and share of the whole.
    private static func tableSizes(_ sizes: [StoreTableSize], entries: Int) -> TextTable {
        let whole = max(1, total(sizes))
        return TextTable(
            headers: ["table or index", "bytes", "B/entry", "share"],
            rows: sizes.map { size in
                [
                    size.name, Formatting.bytes(size.bytes),
                    entries == 0 ? "–" : Formatting.grouped(Int((Double(size.bytes) / Double(entries)).rounded())),
                    String(format: "%.1f %%", 100 * Double(size.bytes) / Double(whole)),
                ]
            },
            numericColumns: [1, 2, 3])
    }
}
