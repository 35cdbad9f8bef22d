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
            """)

    @ParentCommand var journal: JournalCommand

    func run() throws {
        let journal = try self.journal.openJournal(use: .kept)
        let started = ContinuousClock.now
        let progress = ProgressBar(label: "reindexing")
        try journal.reindex(progress: progress.handler)
        progress.finish()
        print(
            "reindexed \(Formatting.count(try journal.statistics().entries, "entry", "entries")) in \(Formatting.seconds(secondsSince(started)))"
        )
    }
}
