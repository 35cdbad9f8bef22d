import ArgumentParser
import JournalKit

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an entry.",
        discussion: """
            The text is the arguments joined by spaces; without arguments it is read from standard \
            input, or, on a terminal, written in $VISUAL or $EDITOR. One trailing newline of text \
            from standard input or the editor is dropped; everything else is kept exactly.
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
        let text =
            self.text.isEmpty
            ? try TextInput.fromStandardInputOrEditor(journalFolder: journal.directory.url)
            : self.text.joined(separator: " ")
        try NewEntry.validate(text: text)
        let date = try self.date.map { text throws(JournalError) in try DatePhrase(text).instant }
        let opened = try journal.openJournal(create: true)
        let entry = try opened.add(NewEntry(date: date ?? .now, text: text, tags: tags, starred: starred))
        JournalCommand.noteIndexBehind(opened)
        if output.json {
            JSONOutput.print(entry.json)
        } else {
            print("added \(entry.id.shortName) \(entry.id.uri)")
        }
    }
}
