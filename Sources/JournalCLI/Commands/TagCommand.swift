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

    @Argument(help: ArgumentHelp("The tags, with or without # or @.", valueName: "NAME"))
    var names: [String]

    func validate() throws {
        guard !names.isEmpty else { throw ValidationError("name at least one tag") }
        do { _ = try NewEntry.tagNames(names) } catch { throw ValidationError(error.message) }
    }

    func run() throws {
        let journal = try self.journal.openJournal()
        let tagged = try journal.addTags(names, to: entry.resolve(in: journal))
        if output.json {
            JSONOutput.print(JSONOutput.entry(tagged))
        } else {
            print("\(tagged.id.shortName): \(EntryRendering.tagList(tagged.tags))")
        }
    }
}
