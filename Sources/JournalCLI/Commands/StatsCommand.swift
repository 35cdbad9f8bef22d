import ArgumentParser
import JournalKit

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count entries and tokens, and size the stores.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    func run() throws {
        let journal = try self.journal.openJournal()
        let stats = try journal.statistics()
        if output.json {
            JSONOutput.print(JSONOutput.statistics(stats, directory: journal.directory.url.path))
            return
        }
        let rows = [
            ("journal", journal.directory.url.path),
            ("entries", Formatting.grouped(stats.entries)),
            ("tokens", Formatting.grouped(stats.tokens)),
            ("main store", Formatting.bytes(stats.mainStoreBytes) + "  journal.sqlite"),
            ("search store", Formatting.bytes(stats.searchStoreBytes) + "  search.sqlite"),
            (
                "prefix table",
                stats.prefixTableBytes > 0
                    ? Formatting.bytes(stats.prefixTableBytes) + "  search.sqlite-prefix" : "none yet (saved from 1,000 distinct tokens)"
            ),
        ]
        for (label, value) in rows {
            print(label.padding(toLength: 13, withPad: " ", startingAt: 0) + value)
        }
    }
}
