import ArgumentParser
import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write entries out, oldest first: JSON Lines that import reads back, or Markdown.",
        discussion: """
            A file is written whole or not at all: to a temporary file beside it, renamed when complete. \
            The entries are read a thousand at a time, so memory stays bounded whatever the journal's size.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var filters: FilterOptions

    @Option(help: "jsonl (what `journal import` reads) or markdown.")
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

    /// Writes the header, then every entry that passes, a batch at a time.
    private func write(_ journal: Journal, filter: EntryFilter, to sink: FileHandle, total: Int, progress: ProgressBar?) throws {
        var written = 0
        var previous: Entry?
        var failure: (any Error)?
        try sink.write(contentsOf: Data(format.header.utf8))
        try journal.forEachEntry(filter: filter) { batch throws(JournalError) in
            var text = ""
            for entry in batch {
                text += format.render(entry, after: previous)
                previous = entry
            }
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
    }
}
