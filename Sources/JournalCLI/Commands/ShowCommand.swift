import ArgumentParser
import JournalKit
import TextReport

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one entry in full.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    @OptionGroup var entry: EntryArgument

    func run() throws {
        let journal = try self.journal.openJournal()
        let entry = try journal.entry(self.entry.resolve(in: journal))
        if output.json {
            JSONOutput.print(entry.json)
        } else {
            print(EntryRendering.full(entry, terminal: .standardOutput))
        }
    }
}

extension ShowCommand: ServedCommand {
    static let positionalKey: String? = "id"

    func answer(in journal: Journal) throws -> JSONValue {
        try journal.entry(entry.resolve(in: journal)).json
    }
}
