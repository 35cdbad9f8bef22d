import ArgumentParser
import JournalKit

struct EncryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt a journal kept in plain text.",
        discussion: """
            Builds the encrypted journal beside the folder, checks it, and puts it in the folder's \
            place in one step: if anything fails, the journal stays as it was. Other commands \
            wait meanwhile. The plain-text files are then deleted, not wiped: their bytes may stay \
            on the disk until overwritten, and backups made before stay in plain text.

            The passphrase is the first line of $JOURNAL_NEW_PASSPHRASE_FILE or of what \
            $JOURNAL_NEW_PASSPHRASE_COMMAND prints; when neither is set, of \
            $JOURNAL_PASSPHRASE_FILE or what $JOURNAL_PASSPHRASE_COMMAND prints, which every \
            later command reads; or else it is typed twice at the terminal.
            """)

    @ParentCommand var journal: JournalCommand

    @OptionGroup var keyDerivation: KeyDerivationOptions

    func run() throws {
        let directory = try journal.directory
        JournalCommand.heldLock = try JournalCommand.lockJournal(directory, for: "encrypt")
        JournalCommand.keepMemoryPrivate()
        let passphrase = try PassphraseInput.initial(for: directory.url.path)
        let progress = ProgressBar(label: "encrypting", unit: .bytes)
        let report = try Journal.encrypt(
            directory, passphrase: passphrase, cost: keyDerivation.level.cost, progress: progress.handler)
        progress.finish()
        print("encrypted the journal in \(directory.url.path) (Argon2id, \(keyDerivation.level.summary))")
        Self.tell(report, replaced: "plain-text")
        Terminal.standardError.write("journal: backups made before stay in plain text\n")
    }

    /// What a conversion left as it was: the folder's other files, and the old files when
    /// they could not be removed (`replaced` names what they hold: "plain-text").
    static func tell(_ report: ConversionReport, replaced: String) {
        if !report.otherFiles.isEmpty {
            Terminal.standardError.write(
                "journal: not the journal's, kept as they were (in plain text): \(report.otherFiles.joined(separator: ", "))\n"
            )
        }
        if let leftOver = report.leftOver {
            Terminal.standardError.write(
                "journal: the old \(replaced) files could not be removed: delete \(leftOver.path) yourself\n")
        } else {
            Terminal.standardError.write("journal: the old \(replaced) files were deleted, not wiped\n")
        }
    }
}
