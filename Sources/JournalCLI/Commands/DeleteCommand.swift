import ArgumentParser
import JournalKit

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an entry, or every entry a query and filters find, from both stores. Identifiers are never reused.",
        discussion: "A set is deleted in one write, all of it or nothing, after a confirmation (--yes skips it).")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry: its URI, p12, or 12 (none with --query or a filter).") var id: String?
    @OptionGroup var selection: EntrySelection

    func run() throws {
        let journal = try self.journal.openJournal()
        let entries = try selection.entries(in: journal, id: id)
        guard selection.choosesASet else {
            try journal.delete(entries[0].id)
            JournalCommand.noteIndexBehind(journal)
            if output.json {
                JSONOutput.print(.object(["deleted": .string(entries[0].id.uri)]))
            } else {
                print("deleted \(entries[0].id.shortName)")
            }
            return
        }
        try selection.confirm("delete them", entries: entries)
        try journal.delete(entries.map(\.id))
        JournalCommand.noteIndexBehind(journal)
        EntrySelection.report("deleted", entries.map(\.id), output: output)
    }
}
