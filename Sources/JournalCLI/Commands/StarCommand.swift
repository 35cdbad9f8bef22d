import ArgumentParser
import JournalKit

struct StarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "star", abstract: "Star an entry, or every entry a query and filters find.",
        discussion: "journal star p12; journal star --query '#trip' --from 2024 (asks first, unless --yes).")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry: its URI, p12, or 12 (none with --query or a filter).") var id: String?
    @OptionGroup var selection: EntrySelection

    func run() throws { try Self.setStar(true, journal: journal, id: id, selection: selection, output: output) }

    /// Stars or unstars the entry or the entries chosen, in one write, and says so.
    static func setStar(
        _ starred: Bool, journal command: JournalCommand, id: String?, selection: EntrySelection, output: OutputOptions
    )
        throws
    {
        let journal = try command.openJournal(changing: starred ? "star" : "unstar")
        let ids = try selection.ids(in: journal, id: id)
        let verb = starred ? "starred" : "unstarred"
        guard selection.choosesASet else {
            let changed = try journal.setStarred(starred, for: ids[0])
            if output.json { JSONOutput.print(changed.json) } else { print("\(verb) \(changed.id.shortName)") }
            return
        }
        try selection.confirm(starred ? "star them" : "unstar them", ids: ids, in: journal)
        try journal.setStarred(starred, for: ids)
        EntrySelection.report(verb, ids, output: output)
    }
}

struct UnstarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unstar",
        abstract: "Take the star away from an entry, or from every entry a query and filters find.")

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry: its URI, p12, or 12 (none with --query or a filter).") var id: String?
    @OptionGroup var selection: EntrySelection

    func run() throws { try StarCommand.setStar(false, journal: journal, id: id, selection: selection, output: output) }
}
