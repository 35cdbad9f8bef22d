import ArgumentParser
import JournalKit
import TextReport

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List entries, newest first.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var page: PageOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var output: OutputOptions

    /// The page the options ask for, from `journal`.
    private func listed(
        in journal: Journal
    ) throws -> (
        total: Int, entries: [Entry], request: PageRequest, filter: EntryFilter
    ) {
        let request = try page.request()
        let filter = try filters.filter()
        let (total, entries) = try journal.list(request, filter: filter)
        return (total, entries, request, filter)
    }

    func run() throws {
        let journal = try self.journal.openJournal()
        if output.json { return JSONOutput.print(try answer(in: journal)) }
        let (total, entries, request, filter) = try listed(in: journal)
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

extension ListCommand: ServedCommand {
    static let positionalKey: String? = nil

    func answer(in journal: Journal) throws -> JSONValue {
        let (total, entries, request, filter) = try listed(in: journal)
        return JSONOutput.list(total: total, entries: entries, page: request, onThisDay: filter.onThisDay)
    }
}
