import ArgumentParser
import JournalKit

struct RekeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Re-encrypt an encrypted journal under a new key, shutting out every old key file.",
        discussion: """
            Draws a new key at random and re-encrypts every file of the journal under it, all or \
            nothing: the new journal is built beside the folder, encrypted from the start (never \
            in plain text on disk), checked, and put in its place in one step. Afterwards no copy \
            of the old journal.key, with the passphrase it was wrapped under, opens the journal; \
            copies of the old files stay readable with them, as before.

            The new key is wrapped under the current passphrase, or with --new-passphrase under a \
            new one ($JOURNAL_NEW_PASSPHRASE_FILE, $JOURNAL_NEW_PASSPHRASE_COMMAND or typed twice): \
            after a passphrase may have become known, use both.
            """)

    @ParentCommand var journal: JournalCommand

    @Flag(help: "Wrap the new key under a new passphrase too.")
    var newPassphrase = false

    @Option(
        name: .customLong("kdf"),
        help: ArgumentHelp(
            "A new Argon2id cost: interactive, moderate or sensitive (default: the journal's own).", valueName: "level")
    )
    var level: KeyDerivationLevel?

    func run() throws {
        let directory = try journal.directory
        JournalCommand.heldLock = try JournalCommand.lockJournal(directory, for: "rekey")
        JournalCommand.keepMemoryPrivate()
        let current = try PassphraseInput.current(for: directory.url.path)
        let new = try newPassphrase ? PassphraseInput.new(for: directory.url.path) : nil
        let progress = ProgressBar(label: "re-encrypting", unit: .bytes)
        let report = try Journal.rekey(
            directory, passphrase: current, newPassphrase: new, cost: level?.cost, progress: progress.handler)
        progress.finish()
        print("re-encrypted the journal in \(directory.url.path) under a new key\(new == nil ? "" : " and passphrase")")
        EncryptCommand.tell(report, replaced: "encrypted")
    }
}
