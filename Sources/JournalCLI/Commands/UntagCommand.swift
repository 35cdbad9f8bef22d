import ArgumentParser
import Foundation
import JournalKit

struct UntagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untag",
        abstract: "Take tags given with `journal tag` or `add --tag` away from an entry.",
        discussion: "A tag written in the entry's text stays until the text is edited.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var entry: EntryArgument

    @OptionGroup var tags: TagNames

    func run() throws {
        let journal = try self.journal.openJournal()
        let (untagged, kept) = try journal.removeTags(tags.names, from: entry.resolve(in: journal))
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
    }
}
