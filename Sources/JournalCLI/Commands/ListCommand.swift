import ArgumentParser
import JournalKit
import TextReport

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List entries, newest first.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var page: PageOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var output: OutputOptions

    /// The values given, whoever read them (``ListArguments``).
    var values: ListArguments { ListArguments(page: page.values, filters: filters.values, json: output.json) }

    func run() throws { try values.run(in: journal.location) }
}

extension ListCommand: ServedCommand {
    static let positionalKey: String? = nil

    func answer(in journal: Journal) throws -> JSONValue { try values.answer(in: journal) }
}

/// What `journal list` was asked, as values (swift-argument-parser's ``ListCommand`` and
/// ``DirectCommandLine`` read them alike), and its run.
struct ListArguments: Equatable {
    var page = PageValues()
    var filters = FilterValues()
    var json = false

    /// The page asked for, from `journal`.
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

    /// Lists the entries of the journal at `location`, as the command does.
    func run(in location: JournalLocation) throws {
        let journal = try location.openJournal()
        if json { return JSONOutput.print(try answer(in: journal)) }
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

    /// What the command prints with `--json`, answered from `journal`.
    func answer(in journal: Journal) throws -> JSONValue {
        let (total, entries, request, filter) = try listed(in: journal)
        return JSONOutput.list(total: total, entries: entries, page: request, onThisDay: filter.onThisDay)
    }
}
