import ArgumentParser
import JournalKit

struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List every tag with the number of entries that have it, most used first.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    func run() throws {
        let tags = try journal.openJournal().tags()
        if output.json {
            JSONOutput.print(
                .array(
                    tags.map { .fields([("tag", .string($0.tag.written)), ("name", .string($0.name)), ("entries", .integer($0.entries))]) })
            )
            return
        }
        guard !tags.isEmpty else {
            print("no tags")
            return
        }
        let width = tags.map { Formatting.grouped($0.entries).count }.max() ?? 1
        for tag in tags {
            let count = Formatting.grouped(tag.entries)
            print(String(repeating: " ", count: width - count.count) + count + "  " + EntryRendering.tagList([tag.tag]))
        }
    }
}
