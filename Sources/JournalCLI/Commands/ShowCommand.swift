import ArgumentParser
import JournalKit

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one entry in full.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    @OptionGroup var entry: EntryArgument

    func run() throws {
        let journal = try self.journal.openJournal()
        let entry = try journal.entry(self.entry.resolve(in: journal))
        if output.json {
            JSONOutput.print(entry.json)
        } else {
            print(EntryRendering.full(entry, terminal: .standardOutput))
        }
    }
}
