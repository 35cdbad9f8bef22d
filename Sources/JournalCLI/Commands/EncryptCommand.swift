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
        JournalCommand.forbidCoreDumps()
        let passphrase = try PassphraseInput.initial(for: directory.url.path)
        let progress = ProgressBar(label: "encrypting", unit: .bytes)
        try Journal.encrypt(directory, passphrase: passphrase, cost: keyDerivation.level.cost, progress: progress.handler)
        progress.finish()
        print("encrypted the journal in \(directory.url.path) (Argon2id, \(keyDerivation.level.summary))")
        Terminal.standardError.write(
            "journal: the plain-text files were deleted, not wiped; backups made before stay in plain text\n")
    }
}
