import ArgumentParser
import JournalKit

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an entry from both stores. Its identifier is never reused.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    @OptionGroup var entry: EntryArgument

    func run() throws {
        let journal = try self.journal.openJournal()
        let id = try entry.resolve(in: journal)
        try journal.delete(id)
        JournalCommand.noteIndexBehind(journal)
        if output.json {
            JSONOutput.print(.object(["deleted": .string(id.uri)]))
        } else {
            print("deleted \(id.shortName)")
        }
    }
}
