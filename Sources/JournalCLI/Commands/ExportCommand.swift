import ArgumentParser
import Foundation
import JournalKit
import TextReport

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write entries out, oldest first, in this project's format, jrnl's or Markdown.",
        discussion: """
            Formats:
              jsonl     this project's JSON Lines: id, date, text, tags, starred (and
                        origin for entries imported from Day One); importing it gives
                        the same journal back
              json      jrnl's JSON export: entries with title, body, date, time,
                        tags, starred, then the tag counts
              txt       jrnl's journal file ([2024-05-01 09:30:00 AM] Title), which
                        jrnl opens
              markdown  a document to read: a heading per day, one per entry

            jrnl's formats hold local dates and times (TZ), to the minute (json) or the second \
            (txt), and a title ending in * marks a starred entry. A file is written whole or not \
            at all: to a temporary file beside it, synced, renamed when complete, and its folder \
            synced, so that once `exported` is printed the file survives a power cut. The entries are read a \
            thousand at a time, so memory stays bounded whatever the journal's size.

            An export is plain text, even of an encrypted journal: --encrypt writes it in age's \
            format (age-encryption.org/v1) instead, under a passphrase from \
            $JOURNAL_EXPORT_PASSPHRASE_FILE or $JOURNAL_EXPORT_PASSPHRASE_COMMAND; when neither \
            is set, from the journal's own $JOURNAL_PASSPHRASE_FILE or \
            $JOURNAL_PASSPHRASE_COMMAND; or else typed twice at the terminal. `age -d` opens it.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var filters: FilterOptions

    @Option(help: "jsonl (the default, what `journal import` reads back), json or txt (jrnl's), or markdown.")
    var format: ExportFormat = .jsonl

    @OptionGroup var output: OutputFileOptions

    @Flag(help: "Encrypt the export in age's format under a passphrase (never given as an argument).")
    var encrypt = false

    func run() throws {
        let filter = try filters.filter()
        if encrypt, output.destination == .standardOutput, Terminal.standardOutput.isTerminal {
            throw JournalError(
                .usage, "an encrypted export is binary: write it with -o FILE or redirect standard output")
        }
        let journal = try self.journal.openJournal()
        if journal.isEncrypted, !encrypt {
            Terminal.standardError.write(
                "journal: the journal is encrypted, and this export of it is in plain text (--encrypt writes age's format)\n"
            )
        }
        // Its memory holds the passphrase and the text it encrypts: no core dump, no other reader.
        if encrypt { JournalCommand.keepMemoryPrivate() }
        let passphrase = try encrypt ? PassphraseInput.export(for: output.destination.path ?? "the export") : nil
        let total = try journal.list(PageRequest(limit: 1), filter: filter).total
        guard let path = output.destination.path else {
            try write(journal, filter: filter, total: total, progress: nil, passphrase: passphrase) {
                data throws(JournalError) in
                do { try FileHandle.standardOutput.write(contentsOf: data) } catch {
                    throw JournalError(.store, "cannot write the export: \(error.localizedDescription)")
                }
            }
            return
        }
        let file = try ReplacementFile(replacing: URL(fileURLWithPath: path))
        let progress = ProgressBar(label: "exporting")
        try write(journal, filter: filter, total: total, progress: progress, passphrase: passphrase) {
            data throws(JournalError) in
            try file.write(data)
        }
        progress.finish()
        try file.commit()
        Terminal.standardError.write("exported \(Formatting.count(total, "entry", "entries")) to \(path)\n")
    }

    /// Writes the header, every entry that passes (a batch at a time), then the footer; in
    /// age's format under `passphrase` when there is one.
    private func write(
        _ journal: Journal, filter: EntryFilter, total: Int, progress: ProgressBar?, passphrase: Passphrase?,
        to output: @escaping (Data) throws(JournalError) -> Void
    ) throws {
        let age = try passphrase.map { passphrase throws(JournalError) in
            try AgeWriter(passphrase: passphrase, sink: output)
        }
        let sink: (Data) throws(JournalError) -> Void = { data throws(JournalError) in
            if let age { try age.write(data) } else { try output(data) }
        }
        var written = 0
        var renderer = ExportWriter(format)
        var failure: (any Error)?
        try sink(Data(renderer.header.utf8))
        try journal.forEachEntry(filter: filter) { batch throws(JournalError) in
            var text = ""
            for entry in batch { text += renderer.write(entry) }
            do {
                try sink(Data(text.utf8))
            } catch {
                failure = error
                throw JournalError(.store, "cannot write the export: \(error.localizedDescription)")
            }
            written += batch.count
            progress?.update(done: written, total: total)
        }
        if let failure { throw failure }
        try sink(Data(renderer.footer.utf8))
        try age?.finish()
        for loss in renderer.losses { Terminal.standardError.write("note: \(loss)\n") }
    }
}
