import ArgumentParser
import JournalKit
import TextReport

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that the search store, prefix table and FTS5 peer agree with the entries.",
        discussion: """
            After the catch-up every command does, checks without changing anything that every \
            page of both stores reads and holds well-formed B-trees, that every \
            entry's canonical text is canonical(text), that its tokens in the search store are \
            exactly tokens(e), that no URI in the search store names a missing entry, that the \
            postings of tokens and prefix keys agree with the documents, that the prefix table \
            finds every token, and that the FTS5 peer (where built) passes FTS5's own check. \
            Prints what is wrong and exits 1, or one line saying all is well. `journal reindex` \
            rebuilds everything derived from the entries; damaged pages of the entries' own \
            store (journal.sqlite) it cannot repair: restore that file from a backup.

            When journal.sqlite lacks changes the search store applied (it was damaged, or \
            restored from an older copy), verify names each entry lost, with its date and the \
            words the search store keeps of it. The journal then takes no write until you decide: \
            restore journal.sqlite from a backup, or run `journal reindex`, which forgets them.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    func run() throws {
        let journal = try self.journal.openJournal()
        let progress = ProgressBar(label: "verifying")
        let report = try journal.verify(progress: progress.handler)
        progress.finish()
        if output.json {
            JSONOutput.print(
                .object([
                    "entries": .integer(report.entries), "consistent": .bool(report.isConsistent),
                    "problems": .array(report.problems.map(JSONValue.string)),
                    "lost_entries": report.lostEntries.map { JSONOutput.lostEntries($0, storeID: journal.storeID) }
                        ?? .null,
                ]))
        } else if report.isConsistent {
            print("OK: \(Formatting.count(report.entries, "entry", "entries")) and everything derived from them agree")
        } else {
            for problem in report.problems { print(problem) }
            Terminal.standardError.write(
                report.entriesDamaged
                    ? "journal: the store of the entries themselves is damaged, which `journal reindex` cannot repair: restore it from a backup\n"
                    : report.lostEntries != nil
                        ? "journal: the entries' store lost what is named above: restore journal.sqlite from a backup to bring it back, or run `journal reindex` to go on without it\n"
                        : "journal: `journal reindex` rebuilds everything derived from the entries, which stay as they are\n"
            )
        }
        if !report.isConsistent { throw ExitCode(1) }
    }
}
