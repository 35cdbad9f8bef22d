import ArgumentParser
import Foundation
import JournalKit
import TextReport

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import entries: JSON Lines, or what jrnl and Day One export.",
        discussion: """
            Formats, told apart by their content (say which with --format when a file is \
            ambiguous):
              jsonl   this project's JSON Lines, one entry a line:
                      {"date": "2024-05-01T08:30:00Z", "text": "…", "tags": ["…"],
                      "starred": true}; the date is optional (now), any offset
              json    jrnl's JSON export (jrnl --export json): local dates and
                      times, read in TZ
              txt     jrnl's journal file: entries starting [2024-05-01 09:30]
                      Title, read in TZ (import it again in the same zone:
                      read in another, its entries are other instants)
              dayone  Day One's export: the .zip it writes, or the Journal.json
                      inside
              jrnl-encrypted
                      jrnl's encrypted journal file (its versions 2 and 3)

            An encrypted jrnl journal's password is the first line of \
            $JOURNAL_IMPORT_PASSWORD_FILE or of what $JOURNAL_IMPORT_PASSWORD_COMMAND prints, or \
            else typed at the terminal.

            An import with one bad entry imports nothing and names it (a line, or an entry's \
            number and uuid). Entries the journal holds already are left out, so importing the \
            same file again adds nothing: Day One's uuids, and the same date and text, for an \
            export's ids (still this journal's entry as it was exported), for jrnl and for JSON \
            Lines (--keep-duplicates imports those). An entry that has the date and text of one \
            the journal holds but a star or a tag that one lacks is not left out: it is imported \
            as an entry of its own, and the journal's is not changed. A JSON Lines entry \
            without a date is dated when its file was last modified (the same at every import of \
            that file), or, read from a pipe, at the import (never found in the journal). jrnl \
            and Day One allow entries with no text; they are left out and counted. Progress is \
            shown on standard error when it is a terminal.

            An import gives way to other work on the machine (nice 10), and keeps off the core a \
            search of the journal runs on: searches run meanwhile keep their speed, and answer \
            from the journal before the import until it is all written and indexed (they say how \
            far indexing has got). A large import writes \
            in steps that no search, list or count sees until the last: killed or interrupted \
            (Ctrl-C), it is pending, and the journal takes no other write until it is run again \
            with the same input, which goes on where it stopped, or dropped with --abandon. \
            --status says what is pending.
            """)

    @ParentCommand var journal: JournalCommand

    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "FILE"))
    var file: String?

    @Flag(
        help:
            "Import entries the journal holds already all the same: with the date and text of one of its entries (an entry of an origin it holds is always left out)."
    )
    var keepDuplicates = false

    @Flag(help: "Say what is left to do of an import (its writing or its indexing) instead of importing.")
    var status = false

    @Flag(help: "Drop the import that was interrupted: delete the entries it wrote, which nothing has shown.")
    var abandon = false

    func validate() throws {
        for (flag, given) in [("--status", status), ("--abandon", abandon)] where given {
            if file != nil || keepDuplicates || format != nil || stepBytes != Journal.importStepBytes
                || (status && abandon)
            {
                throw ValidationError("\(flag) takes no file and no other option")
            }
        }
        if !status, !abandon, file == nil { throw ValidationError("Missing expected argument '<FILE>'") }
        if stepBytes < 1 { throw ValidationError("--step-bytes must be at least 1") }
    }

    @Option(
        help:
            "The file's format: jsonl, json (jrnl's), txt (jrnl's), jrnl-encrypted or dayone; by default, what its content shows."
    )
    var format: ImportFormat?

    /// Bytes of input a step takes: not for users (the default bounds the disk well), but
    /// so that the power-cut tests can record an import of a few kilobytes in several steps.
    @Option(help: .private) var stepBytes = Journal.importStepBytes

    func run() throws {
        if abandon { return try abandonPending() }
        guard let file else { return try showStatus() }
        BackgroundPriority.enter()
        // Kept: its batches are read on one thread while another writes them.
        let journal = try self.journal.openJournal(create: true, use: .kept, changing: "import")
        let givingWay = SearchPriority.start(for: journal.directory)
        defer { givingWay?.stop() }
        let started = ContinuousClock.now
        let importing = ProgressBar(label: "importing", unit: .bytes)
        let indexing = ProgressBar(label: "indexing")
        // An encrypted jrnl journal's password is asked for before the journal is read.
        let shown = format == nil && file != "-" ? try? ImportFormat.shown(byFileAt: file) : nil
        let encrypted = (format ?? shown) == .jrnlEncrypted
        // Its memory holds the password and the text it decrypts: no core dump, no other reader.
        if encrypted { JournalCommand.keepMemoryPrivate() }
        let password = encrypted ? try PassphraseInput.jrnlPassword(for: file) : nil
        ImportInterruption.sayWhereToLook()
        let summary = try journal.importFile(
            atPath: file, format: format, password: password, keepingDuplicates: keepDuplicates,
            progress: { progress in
                switch progress.phase {
                case .importing: importing.update(progress)
                case .indexing, .verifying, .converting, .abandoning, .syncing:
                    importing.finish()
                    indexing.update(progress)
                }
            }, cancellation: nil, stepBytes: stepBytes)
        importing.finish()
        indexing.finish()
        JournalCommand.noteIndexBehind(journal)
        if encrypted, !journal.isEncrypted, summary.count > 0 {
            Terminal.standardError.write(
                "journal: the jrnl journal was encrypted, and \(journal.directory.url.path) is not: its entries are in plain text there now (journal encrypt encrypts it)\n"
            )
        }
        let seconds = secondsSince(started)
        if output.json {
            JSONOutput.print(JSONOutput.imported(summary, storeID: journal.storeID, seconds: seconds))
        } else {
            var line = "imported \(Formatting.count(summary.count, "entry", "entries"))"
            if let ids = summary.ids {
                line += ids.count == 1 ? " (p\(ids.lowerBound))" : " (p\(ids.lowerBound)–p\(ids.upperBound))"
            }
            line += " in \(Formatting.seconds(seconds))"
            if summary.resumed > 0 {
                line +=
                    ", going on from an interrupted run that had written \(Formatting.count(summary.resumed, "entry", "entries"))"
            }
            if summary.alreadyPresent > 0 {
                line += "; left out \(Formatting.grouped(summary.alreadyPresent)) the journal holds already"
            }
            if summary.empty > 0 {
                line +=
                    "\(summary.alreadyPresent > 0 ? " and" : "; left out") \(Formatting.grouped(summary.empty)) with no text"
            }
            print(line)
        }
    }

    /// What is left of an import: its writing (a pending import) and the indexing of entries
    /// written but not yet searched, as they stand: an indexing that was interrupted is left
    /// for the next command (it can take as long as the import did).
    private func showStatus() throws {
        let journal = try self.journal.openJournal(use: .inspection)
        let pending = try journal.pendingImport()
        let underWay = journal.isImportUnderWay
        let indexingUnderWay = journal.isIndexingUnderWay
        let status = try journal.indexStatus()
        if output.json {
            JSONOutput.print(
                .object([
                    "import_under_way": .bool(underWay),
                    "pending_import": pending.map(JSONOutput.pendingImport) ?? .null,
                    "indexing": status.indexing.map(JSONOutput.indexing) ?? .null,
                    "indexing_under_way": .bool(indexingUnderWay),
                ]))
            return
        }
        let lines = Self.statusLines(
            pending: pending, underWay: underWay, indexing: status.indexing, indexingUnderWay: indexingUnderWay)
        for line in lines { print(line) }
    }

    /// `--status` in text: the import's writing, then the indexing of what is written, and
    /// whether that indexing stopped (no process is doing it).
    static func statusLines(
        pending: PendingImport?, underWay: Bool, indexing: IndexingProgress?, indexingUnderWay: Bool
    ) -> [String] {
        var lines: [String] = []
        if let pending {
            lines.append(describe(pending))
        } else if underWay {
            // Its last step committed, its entries are being indexed; or it has not committed one.
            lines.append(
                indexing != nil
                    ? "an import is under way: its entries are written, not shown until they are indexed"
                    : "an import is under way: nothing of it is written yet")
        }
        if let indexing {
            lines.append(
                EntryRendering.indexingLine(indexing)
                    + (underWay || indexingUnderWay
                        ? "" : ", stopped: the next command that opens the journal finishes it first"))
        } else if pending == nil, !underWay {
            lines.append("nothing pending: every entry is written and indexed")
        }
        return lines
    }

    /// Deletes what the interrupted import wrote.
    private func abandonPending() throws {
        let journal = try self.journal.openJournal(changing: "import --abandon")
        let bar = ProgressBar(label: "abandoning")
        let dropped = try journal.abandonPendingImport { bar.update($0) }
        bar.finish()
        if output.json {
            JSONOutput.print(.object(["abandoned": dropped.map(JSONOutput.pendingImport) ?? .null]))
        } else if let dropped {
            print(
                "abandoned the import of \(dropped.inputName): deleted the \(Formatting.count(dropped.written, "entry", "entries")) it had written"
            )
        } else {
            print("no import is pending: nothing to abandon")
        }
    }

    /// A pending import in a line: what it read, what it wrote, what to do.
    static func describe(_ pending: PendingImport) -> String {
        var read = Formatting.bytes(pending.bytesRead)
        if let total = pending.totalBytes { read += " of \(Formatting.bytes(total))" }
        let state =
            pending.isUnderWay
            ? "under way" : "interrupted (run it again to go on where it stopped, or journal import --abandon)"
        return
            "import of \(pending.inputName) \(state): \(Formatting.count(pending.written, "entry", "entries")) written, \(read) read; not shown until it finishes"
    }
}

extension ImportFormat: ExpressibleByArgument {}
