import ArgumentParser
import JournalKit
import TextReport

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an entry.",
        discussion: """
            The text is the arguments joined by spaces; without arguments it is read from standard \
            input, or, on a terminal, written in $VISUAL or $EDITOR. One trailing newline of text \
            from standard input or the editor is dropped; everything else is kept exactly.

            Before the editor opens, everything that can be checked is: the date, the tags, the \
            passphrase, that the journal can be written, and that no other command is changing it \
            (add waits for it, saying so). If saving still fails, what was written in the editor is \
            kept in a private file whose path the error gives; Ctrl-C, TERM or HUP once the editor \
            has closed keep it the same way, except in an encrypted journal, where it is wiped.
            """)

    @ParentCommand var journal: JournalCommand

    @Option(
        help: ArgumentHelp(
            "The entry's date: yesterday, 'last monday 9pm', 'may 1', 2024-05-01T08:30:00+02:00, …", valueName: "DATE"))
    var date: String?

    @Option(
        name: .customLong("tag"),
        help: ArgumentHelp("Give the entry this tag besides those in its text (repeatable).", valueName: "NAME"))
    var tags: [String] = []

    @Flag(name: .customLong("star"), help: "Star the entry.")
    var starred = false

    @OptionGroup var output: OutputOptions

    @Argument(help: "The entry's text.")
    var text: [String] = []

    func validate() throws {
        do { _ = try NewEntry.tagNames(tags) } catch { throw ValidationError(error.message) }
    }

    func run() throws {
        let date = try self.date.map { text throws(JournalError) in try DatePhrase(text).instant }
        guard text.isEmpty, TextInput.standardInputIsTerminal else {
            let text = self.text.isEmpty ? try TextInput.fromStandardInput() : self.text.joined(separator: " ")
            try NewEntry.validate(text: text)
            let opened = try journal.openJournal(create: true, changing: "add")
            tell(try opened.add(NewEntry(date: date ?? .now, text: text, tags: tags, starred: starred)), in: opened)
            return
        }
        let opened = try journal.openJournal(create: true)
        try JournalCommand.prepareForEditing(opened, command: "add")
        let edited = try TextInput.fromEditor(
            initialText: "", journalFolder: opened.directory.url, encrypted: opened.isEncrypted)
        if edited.text.allSatisfy(\.isWhitespace) {
            edited.discard()
            throw JournalError(.invalidInput, "the text is empty; nothing was saved")
        }
        let entry = try edited.save { text in
            try NewEntry.validate(text: text)
            JournalCommand.heldLock = try JournalCommand.lockJournal(opened.directory, for: "add")
            return try edited.whileWriting {
                try opened.add(NewEntry(date: date ?? .now, text: text, tags: tags, starred: starred))
            }
        }
        tell(entry, in: opened)
    }

    private func tell(_ entry: Entry, in journal: Journal) {
        JournalCommand.noteIndexBehind(journal)
        if output.json {
            JSONOutput.print(entry.json)
        } else {
            print("added \(entry.id.shortName) \(entry.id.uri)")
        }
    }
}

extension AddCommand: ServedCommand {
    static let positionalKey: String? = "text"

    func answer(in journal: Journal) throws -> JSONValue {
        guard !text.isEmpty else {
            throw JournalError(.usage, "a request to add gives its \"text\" (journal serve opens no editor)")
        }
        let date = try self.date.map { text throws(JournalError) in try DatePhrase(text).instant }
        let text = self.text.joined(separator: " ")
        try NewEntry.validate(text: text)
        return try journal.add(NewEntry(date: date ?? .now, text: text, tags: tags, starred: starred)).json
    }
}
