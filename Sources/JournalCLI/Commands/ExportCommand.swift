import ArgumentParser
import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write entries out, oldest first, in this project's format, jrnl's or Markdown.",
        discussion: """
            Formats:
              jsonl     this project's JSON Lines: id, date, text, tags, starred (and origin for \
            entries imported from Day One); importing it gives the same journal back
              json      jrnl's JSON export: entries with title, body, date, time, tags, starred, \
            then the tag counts
              txt       jrnl's journal file ([2024-05-01 09:30:00 AM] Title), which jrnl opens
              markdown  a document to read: a heading per day, one per entry

            jrnl's formats hold local dates and times (TZ), to the minute (json) or the second \
            (txt), and a title ending in * marks a starred entry. A file is written whole or not \
            at all: to a temporary file beside it, renamed when complete. The entries are read a \
            thousand at a time, so memory stays bounded whatever the journal's size.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var filters: FilterOptions

    @Option(help: "jsonl (the default, what `journal import` reads back), json or txt (jrnl's), or markdown.")
    var format: ExportFormat = .jsonl

    @Option(name: [.short, .long], help: ArgumentHelp("Write to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    func run() throws {
        let filter = try filters.filter()
        let journal = try self.journal.openJournal()
        let total = try journal.list(PageRequest(limit: 1), filter: filter).total
        guard let output else {
            try write(journal, filter: filter, to: FileHandle.standardOutput, total: total, progress: nil)
            return
        }
        let target = URL(fileURLWithPath: output)
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let sink = FileHandle(forWritingAtPath: partial.path)
        else {
            throw JournalError(.invalidInput, "cannot write \(output): \(String(cString: strerror(errno)))", file: output)
        }
        do {
            let progress = ProgressBar(label: "exporting")
            try write(journal, filter: filter, to: sink, total: total, progress: progress)
            progress.finish()
            try sink.synchronize()
            try sink.close()
            guard rename(partial.path, target.path) == 0 else {
                throw JournalError(.invalidInput, "cannot write \(output): \(String(cString: strerror(errno)))", file: output)
            }
        } catch {
            try? sink.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        Terminal.standardError.write("exported \(Formatting.count(total, "entry", "entries")) to \(output)\n")
    }

    /// Writes the header, every entry that passes (a batch at a time), then the footer.
    private func write(_ journal: Journal, filter: EntryFilter, to sink: FileHandle, total: Int, progress: ProgressBar?) throws {
        var written = 0
        var renderer = ExportRenderer(format)
        var failure: (any Error)?
        try sink.write(contentsOf: Data(renderer.header.utf8))
        try journal.forEachEntry(filter: filter) { batch throws(JournalError) in
            var text = ""
            for entry in batch { text += renderer.render(entry) }
            do {
                try sink.write(contentsOf: Data(text.utf8))
            } catch {
                failure = error
                throw JournalError(.store, "cannot write the export: \(error.localizedDescription)")
            }
            written += batch.count
            progress?.update(done: written, total: total)
        }
        if let failure { throw failure }
        try sink.write(contentsOf: Data(renderer.footer.utf8))
        for loss in renderer.losses { Terminal.standardError.write("note: \(loss)\n") }
    }
}
