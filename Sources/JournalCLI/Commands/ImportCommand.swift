import ArgumentParser
import Foundation
import JournalKit

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import entries from JSON Lines.",
        discussion: """
            One entry a line: {"date": "2024-05-01T08:30:00Z", "text": "…"}. The date is optional \
            (now) and may carry any offset. An import with a bad line imports nothing and names the \
            line. Progress is shown on standard error when it is a terminal.
            """)

    @ParentCommand var journal: JournalCommand

    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "FILE"))
    var file: String

    func run() throws {
        let reader = try JSONLinesReader(path: file)
        let journal = try self.journal.openJournal(create: true)
        let started = Date()
        let importing = ProgressBar(label: "importing", unit: .bytes)
        let indexing = ProgressBar(label: "indexing")
        let summary = try journal.importJSONLines(from: reader) { progress in
            switch progress.phase {
            case .importing: importing.update(progress)
            case .indexing, .verifying:
                importing.finish()
                indexing.update(progress)
            }
        }
        importing.finish()
        indexing.finish()
        JournalCommand.noteIndexBehind(journal)
        let seconds = Date().timeIntervalSince(started)
        if output.json {
            JSONOutput.print(JSONOutput.imported(summary, storeID: journal.storeID, seconds: seconds))
        } else {
            var line = "imported \(Formatting.count(summary.count, "entry", "entries"))"
            if let ids = summary.ids { line += " (p\(ids.lowerBound)–p\(ids.upperBound))" }
            if summary.alreadyPresent > 0 {
                line += ", \(Formatting.count(summary.alreadyPresent, "entry", "entries")) already in the journal"
            }
            line += " in \(Formatting.seconds(seconds))"
            print(line)
        }
    }
}
