import ArgumentParser
import JournalKit
import TextReport

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List entries, newest first.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var page: PageOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let request = try page.request()
        let filter = try filters.filter()
        let (total, entries) = try journal.openJournal().list(request, filter: filter)
        if output.json {
            JSONOutput.print(
                JSONOutput.list(total: total, entries: entries, page: request, onThisDay: filter.onThisDay))
            return
        }
        let terminal = Terminal.standardOutput
        var year: Int?
        for entry in entries {
            if let day = filter.onThisDay, day.yearsAgo(entry.date) != year {
                let ago = day.yearsAgo(entry.date)
                print((year == nil ? "" : "\n") + terminal.bold(Formatting.count(ago, "year", "years") + " ago"))
                year = ago
            }
            print(EntryRendering.line(entry, highlights: [], terminal: terminal))
        }
        if let day = filter.onThisDay, total == 0 {
            print(
                terminal.dim("no entries on \(Formatting.dayOfYear(month: day.month, day: day.day)) in earlier years"))
            return
        }
        print(terminal.dim(EntryRendering.summary(shown: entries.count, total: total, offset: request.offset)))
    }
}
