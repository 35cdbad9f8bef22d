import ArgumentParser
import JournalKit
import TextReport

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Give an entry, or every entry a query and filters find, tags besides those written in its text.",
        discussion: """
            journal tag p12 Café travel; journal tag --query "japan -work" --from 2024 travel (asks first, unless --yes). \
            Names are compared by their canonical form: #Café, @cafe and cafe are one tag, kept in the form given. \
            `journal untag` takes them away again.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var arguments: TaggingArguments
    @OptionGroup var selection: EntrySelection

    func run() throws {
        try Self.change(adding: true, journal: journal, arguments: arguments, selection: selection, output: output)
    }

    /// Gives (`adding`) or takes away the tags named to the entry or the entries chosen, in one
    /// write, and says so.
    static func change(
        adding: Bool, journal command: JournalCommand, arguments: TaggingArguments, selection: EntrySelection,
        output: OutputOptions
    ) throws {
        let (id, names) = try arguments.split(choosingASet: selection.choosesASet)
        let journal = try command.openJournal(changing: adding ? "tag" : "untag")
        let ids = try selection.ids(in: journal, id: id)
        let (added, removed) = adding ? (names, []) : ([], names)
        guard selection.choosesASet else {
            let (changed, kept) = try journal.changeTags(of: ids[0], adding: added, removing: removed)
            for name in kept {
                let shown = changed.tags.first { $0.name == name }?.written ?? name
                Terminal.standardError.write(
                    "journal: #\(shown) is written in the text of \(changed.id.shortName); edit the text to remove it\n"
                )
            }
            if output.json {
                JSONOutput.print(changed.json)
            } else {
                print(
                    "\(changed.id.shortName): \(changed.tags.isEmpty ? "no tags" : EntryRendering.tagList(changed.tags))"
                )
            }
            return
        }
        let shown = names.map { $0.hasPrefix("#") || $0.hasPrefix("@") ? $0 : "#" + $0 }.joined(separator: " ")
        try selection.confirm(adding ? "tag them with \(shown)" : "untag \(shown) from them", ids: ids, in: journal)
        let kept = try journal.changeTags(of: ids, adding: added, removing: removed)
        let written = kept.values.filter { !$0.isEmpty }.count
        if written > 0 {
            Terminal.standardError.write(
                "journal: \(Formatting.count(written, "entry has", "entries have")) one of these written in its text, where it stays\n"
            )
        }
        EntrySelection.report(
            adding ? "tagged" : "untagged", ids, detail: adding ? " with \(shown)" : " from \(shown)", output: output)
    }
}

struct UntagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untag",
        abstract:
            "Take tags given with `journal tag` or `add --tag` away from an entry, or from every entry a query and filters find.",
        discussion: "A tag written in an entry's text stays until the text is edited.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var arguments: TaggingArguments
    @OptionGroup var selection: EntrySelection

    func run() throws {
        try TagCommand.change(
            adding: false, journal: journal, arguments: arguments, selection: selection, output: output)
    }
}
