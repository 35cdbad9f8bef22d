import ArgumentParser
import JournalKit

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an entry's text or date.",
        discussion: """
            Without --text or --date, the text opens in $VISUAL or $EDITOR. If the entry was changed \
            by another command while it was open there, or saving fails otherwise, nothing is \
            saved and what was written is kept in a private file whose path the error gives (as \
            journal add keeps it).
            """)

    @ParentCommand var journal: JournalCommand

    @Option(parsing: .unconditional, help: "The new text (taken as it is, even when it starts with -).")
    var text: String?

    @Option(help: ArgumentHelp("The new date, as `journal add --date` takes it.", valueName: "DATE"))
    var date: String?

    @OptionGroup var output: OutputOptions

    @OptionGroup var entry: EntryArgument

    func run() throws {
        let date = try self.date.map { text throws(JournalError) in try DatePhrase(text).instant }
        guard text == nil, date == nil else {
            let journal = try self.journal.openJournal(changing: "edit")
            tell(try journal.edit(try entry.resolve(in: journal), text: text, date: date), in: journal)
            return
        }
        let journal = try self.journal.openJournal()
        let current = try journal.entry(try entry.resolve(in: journal))
        try JournalCommand.prepareForEditing(journal, command: "edit")
        let edited = try TextInput.fromEditor(
            initialText: current.text, journalFolder: journal.directory.url, encrypted: journal.isEncrypted)
        guard edited.text != current.text else {
            edited.discard()
            print("unchanged \(current.id.shortName)")
            return
        }
        let entry = try edited.save { text in
            JournalCommand.heldLock = try JournalCommand.lockJournal(journal.directory, for: "edit")
            return try edited.whileWriting { try journal.edit(current.id, text: text, basedOn: current) }
        }
        tell(entry, in: journal)
    }

    private func tell(_ entry: Entry, in journal: Journal) {
        JournalCommand.noteIndexBehind(journal)
        if output.json {
            JSONOutput.print(entry.json)
        } else {
            print("edited \(entry.id.shortName)")
        }
    }
}
