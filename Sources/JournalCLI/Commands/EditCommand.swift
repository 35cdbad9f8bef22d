import ArgumentParser
import JournalKit

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an entry's text or date.",
        discussion: "Without --text or --date, the text opens in $VISUAL or $EDITOR.")

    @ParentCommand var journal: JournalCommand

    @Option(parsing: .unconditional, help: "The new text (taken as it is, even when it starts with -).")
    var text: String?

    @Option(help: ArgumentHelp("The new date, as `journal add --date` takes it.", valueName: "DATE"))
    var date: String?

    @OptionGroup var output: OutputOptions

    @OptionGroup var entry: EntryArgument

    func run() throws {
        let date = try self.date.map { text throws(JournalError) in try DatePhrase(text).instant }
        let journal = try self.journal.openJournal()
        let id = try entry.resolve(in: journal)
        var text = self.text
        if text == nil && date == nil {
            let current = try journal.entry(id)
            text = try TextInput.fromEditor(initialText: current.text, journalFolder: journal.directory.url)
            if text == current.text {
                print("unchanged \(id.shortName)")
                return
            }
        }
        let entry = try journal.edit(id, text: text, date: date)
        JournalCommand.noteIndexBehind(journal)
        if output.json {
            JSONOutput.print(entry.json)
        } else {
            print("edited \(entry.id.shortName)")
        }
    }
}
