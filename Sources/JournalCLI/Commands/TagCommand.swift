import ArgumentParser
import JournalKit

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Give an entry tags besides those written in its text.",
        discussion: """
            Names are compared by their canonical form: #Café, @cafe and cafe are one tag. `journal untag` \
            takes them away again.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var entry: EntryArgument

    @OptionGroup var tags: TagNames

    func run() throws {
        let journal = try self.journal.openJournal()
        let tagged = try journal.addTags(tags.names, to: entry.resolve(in: journal))
        if output.json {
            JSONOutput.print(JSONOutput.entry(tagged))
        } else {
            print("\(tagged.id.shortName): \(EntryRendering.tagList(tagged.tags))")
        }
    }
}
