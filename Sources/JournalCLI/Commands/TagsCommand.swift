import ArgumentParser
import JournalKit
import TextReport

struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List every tag with the number of entries that have it, most used first.",
        discussion: """
            Each tag is shown in the form most used in the journal. With --query or filters, only the entries found \
            count: journal tags --query "#trip OR japan" --from 2024.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var found: FoundEntries

    func run() throws {
        let journal = try self.journal.openJournal()
        let tags = try journal.tags(found.searchQuery())
        if output.json { return JSONOutput.print(Self.json(tags)) }
        guard !tags.isEmpty else {
            print(found.isGiven ? "no tags among the entries found" : "no tags")
            return
        }
        let width = tags.map { Formatting.grouped($0.entries).count }.max() ?? 1
        for tag in tags {
            let count = Formatting.grouped(tag.entries)
            print(String(repeating: " ", count: width - count.count) + count + "  " + EntryRendering.tagList([tag.tag]))
        }
    }
}

extension TagsCommand: ServedCommand {
    static let positionalKey: String? = nil

    func answer(in journal: Journal) throws -> JSONValue {
        Self.json(try journal.tags(found.searchQuery()))
    }

    /// The tags as `--json` prints them, most used first.
    static func json(_ tags: [TagCount]) -> JSONValue {
        .array(
            tags.map {
                .fields([
                    ("tag", .string($0.tag.written)), ("name", .string($0.name)), ("entries", .integer($0.entries)),
                ])
            })
    }
}
