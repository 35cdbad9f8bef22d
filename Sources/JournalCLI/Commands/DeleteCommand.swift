import ArgumentParser
import JournalKit

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract:
            "Delete an entry, or every entry a query and filters find, from both stores. Identifiers are never reused.",
        discussion: "A set is deleted in one write, all of it or nothing, after a confirmation (--yes skips it).")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry: its URI, p12, or 12 (none with --query or a filter).") var id: String?
    @OptionGroup var selection: EntrySelection

    func run() throws {
        let journal = try self.journal.openJournal(changing: "delete")
        let ids = try selection.ids(in: journal, id: id)
        guard selection.choosesASet else {
            try journal.delete(ids[0])
            JournalCommand.noteIndexBehind(journal)
            if output.json {
                JSONOutput.print(.object(["deleted": .string(ids[0].uri)]))
            } else {
                print("deleted \(ids[0].shortName)")
            }
            return
        }
        try selection.confirm("delete them", ids: ids, in: journal)
        try journal.delete(ids)
        JournalCommand.noteIndexBehind(journal)
        EntrySelection.report("deleted", ids, output: output)
    }
}
