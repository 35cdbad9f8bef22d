import ArgumentParser
import JournalKit

struct StarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "star", abstract: "Star an entry.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var entry: EntryArgument

    func run() throws { try Self.setStar(true, journal: journal, entry: entry, output: output) }

    /// Stars or unstars the entry, and says so.
    static func setStar(_ starred: Bool, journal command: JournalCommand, entry: EntryArgument, output: OutputOptions) throws {
        let journal = try command.openJournal()
        let changed = try journal.setStarred(starred, for: entry.resolve(in: journal))
        if output.json {
            JSONOutput.print(JSONOutput.entry(changed))
        } else {
            print("\(starred ? "starred" : "unstarred") \(changed.id.shortName)")
        }
    }
}

struct UnstarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unstar", abstract: "Take an entry's star away.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @OptionGroup var entry: EntryArgument

    func run() throws { try StarCommand.setStar(false, journal: journal, entry: entry, output: output) }
}
