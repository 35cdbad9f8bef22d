import ArgumentParser
import Foundation
import JournalKit
import TextReport

struct ReindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Rebuild everything derived from the entries: canonical text, search store, FTS5 peer.",
        discussion: """
            The entries themselves are not touched (their canonical text is rewritten only where \
            it differs from canonical(text)). Progress is shown on standard error on a terminal.

            When journal.sqlite has lost changes the search store applied (`journal verify` names \
            the entries), reindexing is how you go on without them: the search store forgets them \
            too. Restore journal.sqlite from a backup first if you want them back.
            """)

    @ParentCommand var journal: JournalCommand

    func run() throws {
        let journal = try self.journal.openJournal(use: .kept, changing: "reindex")
        let lost = try journal.lostEntries()
        let started = ContinuousClock.now
        let progress = ProgressBar(label: "reindexing")
        try journal.reindex(progress: progress.handler)
        progress.finish()
        if let lost {
            let named = lost.entries.map(\.shortDescription).joined(separator: ", ")
            Terminal.standardError.write(
                "journal: went on without what the entries' store lost\(named.isEmpty ? "" : ": \(named)")\n")
        }
        print(
            "reindexed \(Formatting.count(try journal.statistics().entries, "entry", "entries")) in \(Formatting.seconds(secondsSince(started)))"
        )
    }
}
