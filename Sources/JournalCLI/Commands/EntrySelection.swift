import ArgumentParser
import Foundation
import JournalKit
import TextReport

#if canImport(Glibc)
    import Glibc
#endif

/// The entries `tag`, `untag`, `star`, `unstar` and `delete` act on: one entry named by its
/// identifier, or every entry that a query and filters find (as `journal search` would), after
/// a confirmation on the terminal unless `--yes`.
struct EntrySelection: ParsableArguments {
    @OptionGroup(title: "Choosing entries by a query or filters (instead of an identifier)") var found: FoundEntries

    @Flag(name: [.customShort("y"), .long], help: "Act on the entries found without asking.")
    var yes = false

    /// Whether a set of entries is chosen, rather than one by its identifier.
    var choosesASet: Bool { found.isGiven }

    /// The one entry `id` names (refused when there is none), or, when a set is chosen, every
    /// entry found, newest first. Naming both, or neither, is a usage error.
    func ids(in journal: Journal, id: String?) throws -> [EntryID] {
        switch (id, choosesASet) {
        case (let id?, false): return [try journal.entry(journal.entryID(parsing: id)).id]
        case (nil, true): return try journal.entryIDs(found.searchQuery())
        case (_?, true): throw ValidationError("name one entry, or choose entries with --query or a filter, not both")
        case (nil, false): throw ValidationError("name an entry (p12), or choose entries with --query or a filter")
        }
    }

    /// Asks whether to go ahead with `question` ("tag them with #trip") for the `entries` found
    /// (the first few shown), unless `--yes`; one named entry is not asked about. Without a
    /// terminal to ask on, a set is refused: a script says `--yes`.
    func confirm(_ question: String, ids entries: [EntryID], in journal: Journal) throws {
        guard choosesASet, !yes, !entries.isEmpty else { return }
        let count = Formatting.count(entries.count, "entry", "entries")
        guard isatty(STDIN_FILENO) == 1 else {
            throw JournalError(
                .usage, "\(count) found; add --yes to \(question) without being asked (there is no terminal to ask on)")
        }
        let error = Terminal.standardError
        for id in entries.prefix(5) {
            error.write(EntryRendering.line(try journal.entry(id), highlights: [], terminal: error) + "\n")
        }
        if entries.count > 5 { error.write(error.dim("… and \(Formatting.grouped(entries.count - 5)) more") + "\n") }
        error.write("\(count) found. \(question.prefix(1).uppercased() + question.dropFirst())? [y/N] ")
        let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw JournalError(.invalidInput, "nothing changed") }
    }

    /// What a set action did, for the terminal or JSON: `verb` the `entries`.
    static func report(_ verb: String, _ ids: [EntryID], detail: String = "", output: OutputOptions) {
        if output.json {
            JSONOutput.print(.fields([(verb, .array(ids.map { .string($0.uri) })), ("count", .integer(ids.count))]))
        } else if ids.isEmpty {
            print("no entries found; nothing \(verb)")
        } else {
            print("\(verb) \(Formatting.count(ids.count, "entry", "entries"))\(detail)")
        }
    }
}
