import ArgumentParser
import JournalKit

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an entry from both stores. Its identifier is never reused.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    @Argument(help: "The entry: its URI, p12, or 12.")
    var id: String

    func run() throws {
        let journal = try self.journal.openJournal()
        let id = try journal.entryID(parsing: id)
        try journal.delete(id)
        if output.json {
            JSONOutput.print(.object(["deleted": .string(id.uri)]))
        } else {
            print("deleted \(id.shortName)")
        }
    }
}
