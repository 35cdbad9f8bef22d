import ArgumentParser
import JournalKit

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one entry in full.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    @Argument(help: "The entry: its URI, p12, or 12.")
    var id: String

    func run() throws {
        let journal = try self.journal.openJournal()
        let entry = try journal.entry(journal.entryID(parsing: id))
        if output.json {
            JSONOutput.print(JSONOutput.entry(entry))
        } else {
            print(EntryRendering.full(entry, terminal: .standardOutput))
        }
    }
}
