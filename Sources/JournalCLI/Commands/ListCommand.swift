import ArgumentParser
import JournalKit

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
            JSONOutput.print(JSONOutput.list(total: total, entries: entries, page: request))
            return
        }
        let terminal = Terminal.standardOutput
        for entry in entries { print(EntryRendering.line(entry, highlights: [], terminal: terminal)) }
        print(terminal.dim(EntryRendering.summary(shown: entries.count, total: total, offset: request.offset)))
    }
}
