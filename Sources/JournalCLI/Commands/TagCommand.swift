import ArgumentParser
import JournalKit

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
        let (id, names) = try arguments.split(choosingASet: selection.choosesASet)
        let journal = try self.journal.openJournal()
        let entries = try selection.entries(in: journal, id: id)
        guard selection.choosesASet else {
            let tagged = try journal.addTags(names, to: entries[0].id)
            if output.json {
                JSONOutput.print(JSONOutput.entry(tagged))
            } else {
                print("\(tagged.id.shortName): \(EntryRendering.tagList(tagged.tags))")
            }
            return
        }
        let shown = names.map { $0.hasPrefix("#") || $0.hasPrefix("@") ? $0 : "#" + $0 }.joined(separator: " ")
        try selection.confirm("tag them with \(shown)", entries: entries)
        try journal.changeTags(of: entries.map(\.id), adding: names, removing: [])
        EntrySelection.report("tagged", entries.map(\.id), detail: " with \(shown)", output: output)
    }
}

struct UntagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untag",
        abstract: "Take tags given with `journal tag` or `add --tag` away from an entry, or from every entry a query and filters find.",
        discussion: "A tag written in an entry's text stays until the text is edited.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var arguments: TaggingArguments
    @OptionGroup var selection: EntrySelection

    func run() throws {
        let (id, names) = try arguments.split(choosingASet: selection.choosesASet)
        let journal = try self.journal.openJournal()
        let entries = try selection.entries(in: journal, id: id)
        guard selection.choosesASet else {
            let (untagged, kept) = try journal.removeTags(names, from: entries[0].id)
            for name in kept {
                let shown = untagged.tags.first { $0.name == name }?.written ?? name
                Terminal.standardError.write(
                    "journal: #\(shown) is written in the text of \(untagged.id.shortName); edit the text to remove it\n")
            }
            if output.json {
                JSONOutput.print(JSONOutput.entry(untagged))
            } else {
                print("\(untagged.id.shortName): \(untagged.tags.isEmpty ? "no tags" : EntryRendering.tagList(untagged.tags))")
            }
            return
        }
        let shown = names.map { $0.hasPrefix("#") || $0.hasPrefix("@") ? $0 : "#" + $0 }.joined(separator: " ")
        try selection.confirm("untag \(shown) from them", entries: entries)
        let kept = try journal.changeTags(of: entries.map(\.id), adding: [], removing: names)
        let written = kept.values.filter { !$0.isEmpty }.count
        if written > 0 {
            Terminal.standardError.write(
                "journal: \(Formatting.count(written, "entry has", "entries have")) one of these written in its text, where it stays\n")
        }
        EntrySelection.report("untagged", entries.map(\.id), detail: " from \(shown)", output: output)
    }
}
